package xzread

// -update is defined for every test binary (see testflags).
import _ "github.com/docket-dev/docket/loader/internal/testflags"
