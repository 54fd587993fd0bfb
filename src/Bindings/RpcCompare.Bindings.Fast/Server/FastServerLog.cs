using Microsoft.Extensions.Logging;

namespace RpcCompare.Bindings.Fast.Server;

// Lines about one connection are Debug: a flood of bad connections must not flood the log; what a
// client did wrong is counted and summarised per interval (ConnectionIncidents) instead.
internal static partial class FastServerLog
{
    [LoggerMessage(1, LogLevel.Information, "Binding {Binding} listening on {Address}")]
    public static partial void Listening(ILogger logger, string binding, string address);

    [LoggerMessage(2, LogLevel.Information, "Binding {Binding} takes at most {MaxConnections} connections ({LimitSource}), one thread each; messages up to {MaxMessageSize} bytes; frame timeout {FrameSeconds} s, idle timeout {IdleSeconds} s; spin before blocking {SpinMicroseconds} µs ({Section}:SpinWait)")]
    public static partial void Limits(ILogger logger, string binding, string section, int maxConnections, string limitSource, int maxMessageSize, double frameSeconds, double idleSeconds, double spinMicroseconds);

    [LoggerMessage(3, LogLevel.Debug, "Connection {ConnectionId} closed: {Reason}")]
    public static partial void ConnectionClosed(ILogger logger, long connectionId, string reason);

    [LoggerMessage(4, LogLevel.Error, "Operation {Operation} on connection {ConnectionId} failed")]
    public static partial void OperationFailed(ILogger logger, Exception exception, string operation, long connectionId);

    [LoggerMessage(6, LogLevel.Information, "Binding {Binding} serves {Contract} ({Assembly}) through {Path}")]
    public static partial void ServedThrough(ILogger logger, string binding, string contract, string? assembly, string path);

    [LoggerMessage(7, LogLevel.Warning, "Binding {Binding} takes at most {Connections:#,0} connections, not {Configured:#,0}: it serves each on a thread of its own, and the process may have {Tasks:#,0} tasks ({Source}), shared by the fast bindings; {Raise} raises it")]
    public static partial void LimitedByTasks(ILogger logger, string binding, int connections, int configured, long tasks, string source, string raise);

    [LoggerMessage(5, LogLevel.Error, "Accepting a {Binding} connection failed; retrying")]
    public static partial void AcceptFailed(ILogger logger, Exception exception, string binding);
}
