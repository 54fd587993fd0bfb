using Microsoft.Extensions.Logging;

namespace RpcCompare.Bindings.Hosting;

internal static partial class EmbeddedBindingLog
{
    // Same wording as the pipe server's line, so tools and people find every binding the same way.
    [LoggerMessage(1, LogLevel.Information, "Binding {Binding} listening on {Address}")]
    public static partial void Listening(ILogger logger, string binding, string address);

    [LoggerMessage(2, LogLevel.Information, "Binding {Binding} takes at most {MaxConnections} connections ({Section}:MaxConnections); handshake timeout {HandshakeSeconds} s, idle timeout {IdleSeconds} s")]
    public static partial void Limits(ILogger logger, string binding, int maxConnections, string section, double handshakeSeconds, double idleSeconds);
}
