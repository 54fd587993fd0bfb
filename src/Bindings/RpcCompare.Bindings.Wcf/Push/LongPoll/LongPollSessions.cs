using System.Collections.Concurrent;
using System.Security.Cryptography;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push.LongPoll;

/// <summary>
/// The open long-polling sessions of one wcf-http server. A session that neither polls nor calls
/// for <see cref="WcfHttpBindingOptions.LongPollSessionTimeout"/> is closed: HTTP gives no sign
/// that a client has gone, so silence is the only one.
/// </summary>
internal sealed partial class LongPollSessions : IDisposable
{
    private readonly ConcurrentDictionary<string, LongPollSession> _sessions = new(StringComparer.Ordinal);
    private readonly TimeSpan _timeout;
    private readonly ILogger<LongPollSessions> _logger;
    private readonly TopicRegistry _registry;
    private readonly Timer _sweep;

    public LongPollSessions(TopicRegistry registry, IOptions<WcfHttpBindingOptions> options, ILogger<LongPollSessions> logger)
    {
        _registry = registry;
        _timeout = options.Value.LongPollSessionTimeout;
        _logger = logger;
        var period = TimeSpan.FromTicks(Math.Max(_timeout.Ticks / 4, TimeSpan.FromMilliseconds(100).Ticks));
        _sweep = new Timer(_ => Sweep(), null, period, period);
    }

    public int Count => _sessions.Count;

    public LongPollSession Open()
    {
        var session = new LongPollSession(Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16)), _registry);
        _sessions[session.Id] = session;
        return session;
    }

    public LongPollSession? Find(string id) => _sessions.TryGetValue(id, out var session) ? session : null;

    public bool Close(string id)
    {
        if (!_sessions.TryRemove(id, out var session))
        {
            return false;
        }

        session.Close();
        return true;
    }

    public void Dispose()
    {
        _sweep.Dispose();
        foreach (var id in _sessions.Keys)
        {
            Close(id);
        }
    }

    private void Sweep()
    {
        foreach (var session in _sessions.Values)
        {
            if (session.IdleMilliseconds > _timeout.TotalMilliseconds && Close(session.Id))
            {
                Log.Expired(_logger, session.Id, _timeout.TotalSeconds);
            }
        }
    }

    private static partial class Log
    {
        [LoggerMessage(1, LogLevel.Information, "Long-poll session {Session} closed: no poll or call for {Seconds} s (WcfHttp:LongPollSessionTimeout)")]
        public static partial void Expired(ILogger logger, string session, double seconds);
    }
}
