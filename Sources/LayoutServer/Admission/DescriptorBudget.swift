import Glibc

/// How many connections the process can hold without running out of file descriptors: a
/// connection the server cannot accept would leave the listening socket readable forever and
/// the service loop spinning. The soft `RLIMIT_NOFILE` is raised to the hard limit, and
/// `reserve` descriptors are kept for everything that is not a connection (the listening
/// socket, the wake-up pipe, served files, the state file, /proc reads).
enum DescriptorBudget {
    static let reserve = 64
    /// Descriptors kept between the open-connection cap and the held-connection cap, for
    /// connections that are closing (evicted or expired, not yet closed by libwebsockets).
    static let closingSlack = 64

    /// Raises the soft limit on open files to the hard limit; returns the soft limit in force.
    static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_CONSTANT, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(RLIMIT_NOFILE_CONSTANT, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    /// The most connections that may be open at once under `openFiles`.
    static func maxConnections(openFiles: Int) -> Int { openFiles - reserve - closingSlack }

    /// The connections the process may hold, closing ones included, with `maxConnections` open.
    static func maxDescriptors(maxConnections: Int) -> Int { maxConnections + closingSlack }

    /// libwebsockets' own socket limit (`fd_limit_per_thread`): the held connections plus the
    /// listening socket and the wake-up pipe. At it, lws stops polling the listening socket
    /// (and ends its accept loop, which otherwise runs as long as connections keep arriving,
    /// starving timers: the closes of evicted connections would wait behind the flood), and
    /// resumes when sockets close.
    static func socketLimit(maxConnections: Int) -> Int { maxDescriptors(maxConnections: maxConnections) + 8 }

    private static var RLIMIT_NOFILE_CONSTANT: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
}
