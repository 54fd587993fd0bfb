using Microsoft.Extensions.Logging;
using RpcCompare.Contracts;

namespace RpcCompare.Push.Internal;

/// <summary>
/// Follows a broker's feed for one <see cref="TopicRegistry"/>: hands every publication to the
/// registry, one at a time (so each topic stays in order), and opens the feed again if it ends or
/// fails. Broker failures are logged once per <see cref="Quiet"/>: a broker that is down fails every
/// call until it is back, and the log says so once, not once per call.
/// </summary>
internal sealed class BrokerFeed : IAsyncDisposable
{
    private static readonly TimeSpan Quiet = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan RetryDelay = TimeSpan.FromSeconds(1);
    private readonly IPushBroker _broker;
    private readonly TopicRegistry _registry;
    private readonly ILogger _logger;
    private readonly CancellationTokenSource _stop = new();
    private readonly TaskCompletionSource _opened = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Task _running;
    private long _lastLogged;
    private int _loggedAny;

    public BrokerFeed(IPushBroker broker, TopicRegistry registry, ILogger logger)
    {
        _broker = broker;
        _registry = registry;
        _logger = logger;
        _running = Task.Run(RunAsync);
    }

    /// <summary>How long a first subscriber waits for the feed to open before it is refused.</summary>
    public static TimeSpan OpenTimeout { get; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Returns once the feed is open (at once after the first time): a topic's first subscriber may
    /// only ask the broker for its last number when nothing published after the answer can be missed.
    /// </summary>
    /// <exception cref="RpcServiceException">The feed did not open within <see cref="OpenTimeout"/>.</exception>
    public async ValueTask WaitUntilOpenAsync(CancellationToken cancellationToken)
    {
        if (_opened.Task.IsCompleted)
        {
            return;
        }

        try
        {
            await _opened.Task.WaitAsync(OpenTimeout, cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            throw new RpcServiceException(RpcErrorCode.Internal, $"The push broker ({_broker.Description}) is not reachable: this host follows no topic until it is.");
        }
    }

    /// <summary>Logs a broker failure, unless one was logged within <see cref="Quiet"/>.</summary>
    public void ReportFailure(Exception exception)
    {
        var now = Environment.TickCount64;
        var last = Interlocked.Read(ref _lastLogged);
        var first = Interlocked.Exchange(ref _loggedAny, 1) == 0;
        if ((first || now - last >= Quiet.TotalMilliseconds) && Interlocked.CompareExchange(ref _lastLogged, now, last) == last)
        {
            PushLog.BrokerFailed(_logger, exception, _broker.Description, exception.Message, Quiet);
        }
    }

    /// <summary>Stops the feed; it ends in the background.</summary>
    public void Stop() => _stop.Cancel();

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        await _running.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        _stop.Dispose();
    }

    private async Task RunAsync()
    {
        var stop = _stop.Token;
        while (!stop.IsCancellationRequested)
        {
            try
            {
                await using var feed = await _broker.OpenFeedAsync(stop).ConfigureAwait(false);
                if (_opened.TrySetResult())
                {
                    // The first time there is nothing to catch up: every topic joins after this (its first subscriber
                    // waits for it), and a catch-up here would wait for joins already under way, not reading the feed.
                    PushLog.FeedOpened(_logger, _broker.Description);
                }
                else
                {
                    // Open again after a failure or a lost connection: what was published meanwhile is read back
                    // from the log now, not when (if ever) the topic's next publication shows the gap.
                    PushLog.FeedReopened(_logger, _broker.Description);
                    await _registry.CatchUpAsync(stop).ConfigureAwait(false);
                }

                await foreach (var notification in feed.ReadAllAsync(stop).ConfigureAwait(false))
                {
                    try
                    {
                        await _registry.DeliverAsync(notification, stop).ConfigureAwait(false);
                    }
                    catch (Exception e) when (e is not OperationCanceledException)
                    {
                        ReportFailure(e);
                    }
                }

                // The feed ended: the broker's connection was lost and is back. Open a new one.
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e)
            {
                ReportFailure(e);
                try
                {
                    await Task.Delay(RetryDelay, stop).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        }
    }
}
