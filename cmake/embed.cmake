# Turn a file into a C source defining its bytes as a NUL-terminated string:
#   cmake -DINPUT=file -DOUTPUT=file.c -DSYMBOL=name -P embed.cmake
# defines `const unsigned char name[]` and `const size_t name_len` (without the NUL).
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR length "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}"
  "/* Generated from ${INPUT} by cmake/embed.cmake; do not edit. */\n"
  "#include <stddef.h>\n"
  "extern const unsigned char ${SYMBOL}[];\n"
  "extern const size_t ${SYMBOL}_len;\n"
  "const unsigned char ${SYMBOL}[] = {\n${bytes}0x00};\n"
  "const size_t ${SYMBOL}_len = ${length};\n")
