# Writes the zip fixtures of TestZipMethods with Python's zipfile (python3 gen.py).
import struct, zipfile

def write(name, members, method):
    with zipfile.ZipFile(name, "w", compression=method) as z:
        for n, data in members:
            z.writestr(n, data)

text = "Minutes of the harbour board, 12 March 2024.\nThe dredging contract goes to tender.\n" * 3
members = [("minutes/board.txt", text), ("notes.md", "# Notes\n\nPier 4 reopens in May.\n")]
write("bzip2.zip", members, zipfile.ZIP_BZIP2)
write("lzma.zip", members, zipfile.ZIP_LZMA)

# One archive, three members: deflated, bzip2, LZMA (7-Zip's -mm per member is not possible; zipfile's is).
with zipfile.ZipFile("mixed.zip", "w") as z:
    z.writestr("a.txt", "alpha deflated", compress_type=zipfile.ZIP_DEFLATED)
    z.writestr("b.txt", "beta bzip2", compress_type=zipfile.ZIP_BZIP2)
    z.writestr("c.txt", "gamma lzma", compress_type=zipfile.ZIP_LZMA)
    z.writestr("d.txt", "delta stored, then marked PPMd", compress_type=zipfile.ZIP_STORED)

def patch(name, fn):
    b = bytearray(open(name, "rb").read())
    fn(b)
    open(name, "wb").write(bytes(b))

def headers(b, sig):
    i = b.find(sig)
    while i >= 0:
        yield i
        i = b.find(sig, i + 1)

def set_method(name, member, method):
    def fn(b):
        for i in headers(b, b"PK\x03\x04"):
            n = struct.unpack_from("<H", b, i + 26)[0]
            if b[i + 30:i + 30 + n] == member.encode():
                struct.pack_into("<H", b, i + 8, method)
        for i in headers(b, b"PK\x01\x02"):
            n = struct.unpack_from("<H", b, i + 28)[0]
            if b[i + 46:i + 46 + n] == member.encode():
                struct.pack_into("<H", b, i + 10, method)
    patch(name, fn)

set_method("mixed.zip", "d.txt", 98)

# Bombs (for a 64 KiB limit): 2 MiB of zeros, each format; a lying one declares 1 KiB.
zeros = b"\0" * (2 << 20)
write("bomb-bzip2.zip", [("zeros.bin", zeros)], zipfile.ZIP_BZIP2)
write("bomb-lzma.zip", [("zeros.bin", zeros)], zipfile.ZIP_LZMA)

def declare(name, size):
    def fn(b):
        for i in headers(b, b"PK\x03\x04"):
            struct.pack_into("<II", b, i + 18, size, size)
        for i in headers(b, b"PK\x01\x02"):
            struct.pack_into("<II", b, i + 20, size, size)
    patch(name, fn)

import shutil
shutil.copy("bomb-bzip2.zip", "liar-bzip2.zip")
declare("liar-bzip2.zip", 1024)
shutil.copy("bomb-lzma.zip", "liar-lzma.zip")
declare("liar-lzma.zip", 1024)

# An LZMA member asking for a 4 GiB dictionary (its properties patched), declared 100 MiB.
def bigdict(b):
    for i in headers(b, b"PK\x03\x04"):
        n, m = struct.unpack_from("<HH", b, i + 26)
        d = i + 30 + n + m
        struct.pack_into("<I", b, d + 5, 0xFFFFFFFF)
shutil.copy("bomb-lzma.zip", "bigdict-lzma.zip")
patch("bigdict-lzma.zip", bigdict)
declare("bigdict-lzma.zip", 100 << 20)
