#!/usr/bin/env python3
"""Writes cropkit(1) in roff from the binary's own help: the top-level `--help`, then each subcommand's, so the man
page says exactly what the installed binary does.

    deploy/manpage.py PATH-TO-CROPKIT VERSION > cropkit.1
"""
import datetime
import re
import subprocess
import sys

binary, version = sys.argv[1], sys.argv[2]


def help_text(*arguments):
    return subprocess.run([binary, *arguments, "--help"], capture_output=True, text=True, check=True).stdout


def roff(text):
    lines = []
    for line in text.rstrip().splitlines():
        line = line.replace("\\", "\\\\").replace("-", "\\-")
        lines.append(("\\&" + line) if line.startswith((".", "'")) else line)
    return "\n".join(lines)


top = help_text()
abstract = " ".join(top.split("\n\n", 1)[0].removeprefix("OVERVIEW: ").split()).rstrip(".")
subcommands = re.findall(r"^  ([a-z][a-z-]+)\s", top.split("SUBCOMMANDS:", 1)[1], flags=re.M) if "SUBCOMMANDS:" in top else []
date = datetime.date.today().isoformat()
print(f'.TH CROPKIT 1 "{date}" "cropkit {version}" "User Commands"')
print(".SH NAME")
print(f"cropkit \\- {roff(abstract)}")
print(".SH SYNOPSIS")
print(".B cropkit")
print("\\fISUBCOMMAND\\fR [\\fIOPTIONS\\fR]")
print(".SH DESCRIPTION")
print(".nf")
print(roff(top))
print(".fi")
print(".SH SUBCOMMANDS")
for name in subcommands:
    if name == "help":
        continue
    print(f".SS {name}")
    print(".nf")
    print(roff(help_text(name)))
    print(".fi")
print(".SH SEE ALSO")
print("The README, CHANGELOG and licences in /usr/share/doc/cropkit; docs/ in the source repository.")
