module github.com/nikolalohinski/gonja/v2

go 1.24.4

require (
	github.com/dustin/go-humanize v1.0.1
	github.com/pkg/errors v0.9.1
	github.com/sirupsen/logrus v1.9.3
	golang.org/x/exp v0.0.0-20240719175910-8a7402abbf56
	golang.org/x/text v0.23.0
)

require golang.org/x/sys v0.0.0-20220715151400-c0bba94af5f8 // indirect
