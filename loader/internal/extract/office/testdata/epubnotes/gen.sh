# pandoc 2.17.1.1: notes3.epub (EPUB 3) and notes2.epub (EPUB 2) of notes.md, fixtures of TestEPUBFootnotes
pandoc notes.md -o notes3.epub
pandoc notes.md -t epub2 -o notes2.epub
