using Microsoft.Extensions.Logging;

namespace RpcCompare.Bindings.Pipes.Server;

// Lines about one connection are Debug: a flood of bad connections must not flood the log.
// What a client did wrong is counted and summarised per interval (ConnectionIncidents) instead.
internal static partial class PipeServerLog
{
    [LoggerMessage(1, LogLevel.Information, "Binding {Binding} listening on {Address}")]
    public static partial void Listening(ILogger logger, string binding, string address);

    [LoggerMessage(12, LogLevel.Information, "Binding {Binding} takes at most {MaxConnections} connections (Pipes:MaxConnections); frame timeout {FrameSeconds} s, idle timeout {IdleSeconds} s")]
    public static partial void Limits(ILogger logger, string binding, int maxConnections, double frameSeconds, double idleSeconds);

    [LoggerMessage(2, LogLevel.Debug, "Connection {ConnectionId} opened")]
    public static partial void ConnectionOpened(ILogger logger, long connectionId);

    [LoggerMessage(3, LogLevel.Debug, "Connection {ConnectionId} closed by the client")]
    public static partial void ConnectionClosed(ILogger logger, long connectionId);

    [LoggerMessage(4, LogLevel.Debug, "Connection {ConnectionId} ended in the middle of a frame; dropped it")]
    public static partial void TruncatedFrame(ILogger logger, long connectionId);

    [LoggerMessage(5, LogLevel.Debug, "Connection {ConnectionId} sent a {Length}-byte frame, over the limit; answered QuotaExceeded and closed it")]
    public static partial void OversizedFrameClosed(ILogger logger, long connectionId, long length);

    [LoggerMessage(6, LogLevel.Error, "Operation 0x{Operation:X2} on connection {ConnectionId} failed")]
    public static partial void OperationFailed(ILogger logger, Exception exception, byte operation, long connectionId);

    [LoggerMessage(7, LogLevel.Debug, "Connection {ConnectionId} failed: {Reason}")]
    public static partial void ConnectionFailed(ILogger logger, long connectionId, string reason);

    [LoggerMessage(13, LogLevel.Debug, "Connection {ConnectionId} sent no request for {Seconds} s; closed it")]
    public static partial void IdleClosed(ILogger logger, long connectionId, double seconds);

    [LoggerMessage(9, LogLevel.Debug, "Connection {ConnectionId} left a frame unfinished for {Seconds} s; dropped it")]
    public static partial void StalledFrame(ILogger logger, long connectionId, double seconds);

    [LoggerMessage(14, LogLevel.Debug, "Connection {ConnectionId} did not take its reply within {Seconds} s; closed it")]
    public static partial void StoppedReading(ILogger logger, long connectionId, double seconds);

    [LoggerMessage(11, LogLevel.Information, "The pipes binding is the hand-written baseline for RpcCompare's own contracts; it does not carry {Contracts}")]
    public static partial void ContractsNotCarried(ILogger logger, string contracts);

    [LoggerMessage(8, LogLevel.Error, "Accepting a pipe connection failed; retrying")]
    public static partial void AcceptFailed(ILogger logger, Exception exception);
}
