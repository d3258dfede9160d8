module github.com/abadojack/whatlanggo

go 1.21
