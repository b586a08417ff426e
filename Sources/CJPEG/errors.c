// The JPEG shim's error manager: libjpeg's errors become a status code and a message through a longjmp to the
// caller's guard; its warnings are kept (the first CK_JPEG_MAX_WARNINGS), and fail a strict decode.
//
// Invariant: every path out of ck_error_exit and ck_emit_message's failures longjmps (libjpeg must never return
// from error_exit); `status`, `message_code` and `message` describe the first failure.

#include "shim_internal.h"

#include <stdio.h>
#include <string.h>


static void ck_copy_message(char *dst, const char *src) {
  strncpy(dst, src, CK_JPEG_MESSAGE_LENGTH - 1);
  dst[CK_JPEG_MESSAGE_LENGTH - 1] = '\0';
}

static int ck_classify(int code) {
  switch (code) {
    case JERR_NO_SOI:
      return CK_JPEG_ERR_NOT_JPEG;
    case JERR_INPUT_EMPTY:
    case JERR_INPUT_EOF:
      return CK_JPEG_ERR_TRUNCATED;
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_NOT_COMPILED:
    case JERR_ARITH_NOTIMPL:
    case JERR_CCIR601_NOTIMPL:
    case JERR_COMPONENT_COUNT:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_IMAGE_TOO_BIG:
    case JERR_EMPTY_IMAGE:
      return CK_JPEG_ERR_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY:
    case JERR_NO_BACKING_STORE:
    case JERR_TFILE_CREATE:
    case JERR_TFILE_READ:
    case JERR_TFILE_SEEK:
    case JERR_TFILE_WRITE:
      return CK_JPEG_ERR_MEMORY;
    case JERR_BAD_STATE:
      return CK_JPEG_ERR_USAGE;
    default:
      return CK_JPEG_ERR_CORRUPT;
  }
}

void ck_fail(ck_error_mgr *err, int status, int code, const char *message) {
  err->status = status;
  err->message_code = code;
  ck_copy_message(err->message, message);
  longjmp(err->jump, 1);
}

static void ck_error_exit(j_common_ptr cinfo) {
  ck_error_mgr *err = (ck_error_mgr *)cinfo->err;
  char buffer[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buffer);
  if (err->eof_hit) {
    // Past the end of the data libjpeg only sees the fake EOI it was handed; whatever it objects to now (a table
    // cut in half, a missing scan) is the truncation.
    char message[CK_JPEG_MESSAGE_LENGTH];
    snprintf(message, sizeof message, "Premature end of JPEG data (the file is truncated; libjpeg: %s)", buffer);
    ck_fail(err, CK_JPEG_ERR_TRUNCATED, err->pub.msg_code, message);
  }
  ck_fail(err, ck_classify(err->pub.msg_code), err->pub.msg_code, buffer);
}

void ck_record_warning(ck_error_mgr *err, const char *message) {
  if (err->warning_count < CK_JPEG_MAX_WARNINGS) {
    ck_copy_message(err->warnings[err->warning_count], message);
  }
  err->warning_count++;
}

static void ck_emit_message(j_common_ptr cinfo, int msg_level) {
  ck_error_mgr *err = (ck_error_mgr *)cinfo->err;
  if (msg_level >= 0) return;  // trace messages: ignored
  if (err->ignore_bogus_progression && err->pub.msg_code == JWRN_BOGUS_PROGRESSION) return;
  char buffer[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buffer);
  err->pub.num_warnings++;
  // Once the data has run out, the entropy decoder needing bits that are not there (JWRN_HIT_MARKER) is the file's
  // truncation. (Data cut before a restart marker gets there too: the blocks after it need bits.) Other warnings stay
  // warnings: the data may have run out only in a read ahead (libjpeg's bit reader loads up to 64 bits, CropKit's
  // whole words), while the bad code or stray bytes warned about lie before the end, and whether a reader has read
  // ahead yet must not decide the outcome.
  if (err->eof_hit && err->in_data_phase && err->pub.msg_code == JWRN_HIT_MARKER) {
    ck_fail(err, CK_JPEG_ERR_TRUNCATED, err->pub.msg_code, "Premature end of JPEG data (the file is truncated)");
  }
  if (err->strict) ck_fail(err, CK_JPEG_ERR_STRICT_WARNING, err->pub.msg_code, buffer);
  ck_record_warning(err, buffer);
}

static void ck_output_message(j_common_ptr cinfo) { (void)cinfo; }

void ck_init_error(ck_error_mgr *err, int strict) {
  memset(err, 0, sizeof(*err));
  jpeg_std_error(&err->pub);
  err->pub.error_exit = ck_error_exit;
  err->pub.emit_message = ck_emit_message;
  err->pub.output_message = ck_output_message;
  err->strict = strict;
  err->message_code = -1;
}
