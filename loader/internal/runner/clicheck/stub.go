package cli

const (
	ExitOK     = 0
	ExitFailed = 1
	ExitUsage  = 2
)
