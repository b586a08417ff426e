#!/usr/bin/env bash
# Regenerates the progressive JPEGs of scans/ (the parallel-scan decoder's tests): one 320×213 shrink of
# photos/unsplash-rachel-hisko-6000x4000.jpg, rewritten losslessly by jpegtran (libjpeg-turbo-progs) with each scan
# script below. Needs /usr/bin/python3 with Pillow, and jpegtran.
#
#   Tests/CropCodecsTests/Fixtures/scans/make-scan-fixtures.sh [path/to/shared/testdata]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-$here/../../../../../shared/testdata}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$data/photos/unsplash-rachel-hisko-6000x4000.jpg" "$work/base.jpg" "$work/base444.jpg" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
im.draft("RGB", (750, 500))
im = im.resize((320, 213), Image.LANCZOS)
im.save(sys.argv[2], quality=92, subsampling=2)
im.save(sys.argv[3], quality=92, subsampling=0)
PY
# The camera photo's own script: a DC scan per component, luma AC in two bands at full precision, chroma AC in two
# bands at Al 2 then two refinements.
cat > "$work/photo.txt" <<'S'
0: 0 0 0 0; 1: 0 0 0 0; 2: 0 0 0 0;
0: 1 8 0 0; 0: 9 63 0 0;
1: 1 2 0 2; 1: 3 63 0 2; 2: 1 2 0 2; 2: 3 63 0 2;
1: 1 63 2 1; 2: 1 63 2 1; 1: 1 63 1 0; 2: 1 63 1 0;
S
# mozjpeg's kind: interleaved DC without refinement, luma in three bands, each chroma component in two.
cat > "$work/bands.txt" <<'S'
0 1 2: 0 0 0 0;
0: 1 2 0 0; 0: 3 8 0 0; 0: 9 63 0 0;
1: 1 8 0 0; 1: 9 63 0 0; 2: 1 8 0 0; 2: 9 63 0 0;
S
# Successive approximation everywhere, DC included, and one luma band refined twice.
cat > "$work/refine.txt" <<'S'
0 1 2: 0 0 0 2;
0: 1 63 0 3; 1: 1 63 0 1; 2: 1 63 0 1;
0 1 2: 0 0 2 1; 0: 1 63 3 2; 0 1 2: 0 0 1 0;
0: 1 63 2 1; 0: 1 63 1 0; 1: 1 63 1 0; 2: 1 63 1 0;
S
# Never completes: luma AC stops at Al 1, which libjpeg smooths, so this file must be read by one thread.
cat > "$work/incomplete.txt" <<'S'
0 1 2: 0 0 0 0;
0: 1 63 0 1; 1: 1 63 0 0; 2: 1 63 0 0;
S
jpegtran -copy none -scans "$work/photo.txt" -outfile "$here/photo-script.jpg" "$work/base.jpg"
jpegtran -copy none -scans "$work/bands.txt" -outfile "$here/bands.jpg" "$work/base.jpg"
jpegtran -copy none -scans "$work/refine.txt" -outfile "$here/refine.jpg" "$work/base.jpg"
jpegtran -copy none -scans "$work/incomplete.txt" -outfile "$here/incomplete.jpg" "$work/base.jpg"
jpegtran -copy none -progressive -restart 1 -outfile "$here/restart-444.jpg" "$work/base444.jpg"
# libjpeg's default script (interleaved DC, refinements), with a COM segment between the third and fourth scans.
jpegtran -copy none -progressive -outfile "$work/default.jpg" "$work/base.jpg"
/usr/bin/python3 - "$work/default.jpg" "$here/default-com.jpg" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
sos = [i for i in range(len(d) - 1) if d[i] == 0xFF and d[i + 1] == 0xDA]
at = sos[3]  # after that scan's own DHT: a COM may sit between any two segments
comment = b"between scans"
com = b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment
open(sys.argv[2], "wb").write(d[:at] + com + d[at:])
PY
ls -l "$here"/*.jpg
