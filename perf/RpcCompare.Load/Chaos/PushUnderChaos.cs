using System.Collections.Concurrent;
using System.Diagnostics;
using RpcCompare.Bindings;
using RpcCompare.Contracts.Push;
using Spectre.Console;

namespace RpcCompare.Load.Chaos;

/// <summary>
/// The push half of --chaos kill-replica: subscribers on every push binding, all through the
/// balancer (so spread over the replicas), and one publisher numbering a fresh topic every
/// <see cref="PublishInterval"/> through it. When a replica dies, its subscribers subscribe again
/// elsewhere from their last number; afterwards each must hold every publication the publisher saw
/// acknowledged, once and in order. Disposing it stops everything it started, whatever state the run is in.
/// </summary>
internal sealed class PushUnderChaos : IAsyncDisposable
{
    private static readonly TimeSpan PublishInterval = TimeSpan.FromMilliseconds(10);

    /// <summary>How long the subscribers get, after the last publication, to receive it.</summary>
    private static readonly TimeSpan DrainBound = TimeSpan.FromSeconds(15);

    private readonly LoadContext _context;
    private readonly TimeSpan _callTimeout;
    private readonly string _topic = "chaos-" + Guid.NewGuid().ToString("N");
    private readonly string _publisherBinding;
    private readonly List<ChaosSubscriber> _subscribers = [];
    private readonly CancellationTokenSource _stopPublishing = new();
    private readonly CancellationTokenSource _stopFollowing = new();
    private readonly ConcurrentDictionary<string, long> _publishErrors = new();
    private readonly List<Task> _following = [];
    private Task _publishing = Task.CompletedTask;
    private long _highestAcknowledged;
    private long _acknowledged;
    private long _failed;

    private PushUnderChaos(LoadContext context, string publisherBinding, TimeSpan callTimeout)
    {
        _context = context;
        _publisherBinding = publisherBinding;
        _callTimeout = callTimeout;
    }

    /// <summary>Subscribes every subscriber (a refusal fails the run, and what was started is stopped), then starts publishing.</summary>
    /// <param name="context">The run: its bindings, the balancer's addresses, the client factory, the console.</param>
    /// <param name="perBinding">Subscribers per push binding.</param>
    /// <param name="callTimeout">How long one subscribe or publish may take.</param>
    /// <param name="clock">The run's clock.</param>
    /// <param name="cancellationToken">Ends the subscribing.</param>
    public static async Task<PushUnderChaos> StartAsync(LoadContext context, int perBinding, TimeSpan callTimeout, Stopwatch clock, CancellationToken cancellationToken)
    {
        var bindings = context.Bindings.Where(context.Factory.PushBindings.Contains).ToList();
        if (bindings.Count == 0)
        {
            throw new InvalidOperationException($"--chaos kill-replica checks push across the replicas, but none of {string.Join(", ", context.Bindings)} can push.");
        }

        // gRPC's calls are balanced one by one, so its publications land on every replica in turn.
        var push = new PushUnderChaos(context, bindings.Contains(BindingNames.GrpcTcp) ? BindingNames.GrpcTcp : bindings[0], callTimeout);
        try
        {
            foreach (var binding in bindings)
            {
                for (var i = 1; i <= perBinding; i++)
                {
                    var subscriber = new ChaosSubscriber(context.Factory, binding, i, context.Endpoints[binding], push._topic, clock,
                        () => Interlocked.Read(ref push._highestAcknowledged), callTimeout);
                    push._subscribers.Add(subscriber);
                    await subscriber.SubscribeAsync(cancellationToken);
                }
            }
        }
        catch
        {
            await push.DisposeAsync();
            throw;
        }

        push._following.AddRange(push._subscribers.Select(s => Task.Run(() => s.FollowAsync(push._stopFollowing.Token), CancellationToken.None)));
        push._publishing = Task.Run(push.PublishAsync, CancellationToken.None);
        context.Console.MarkupLineInterpolated(
            $"    push: {push._subscribers.Count} subscribers ({perBinding} per binding: {string.Join(", ", bindings)}) through the balancer; {push._publisherBinding} publishes every {PublishInterval.TotalMilliseconds:0} ms");
        return push;
    }

    /// <summary>Stops publishing, lets the subscribers catch up (bounded), closes them and checks what each received.</summary>
    public async Task<ChaosPushResult> FinishAsync(double killedAt)
    {
        await _stopPublishing.CancelAsync();
        await _publishing;
        var drain = Stopwatch.StartNew();
        var highest = Interlocked.Read(ref _highestAcknowledged);
        while (drain.Elapsed < DrainBound && _subscribers.Any(s => s.Last < highest))
        {
            await Task.Delay(50);
        }

        await StopFollowingAsync();
        var result = new ChaosPushResult(_publisherBinding, Interlocked.Read(ref _acknowledged), highest, Interlocked.Read(ref _failed),
            _publishErrors.MostFrequentFirst(), [.. _subscribers.Select(s => s.Result(highest, killedAt))]);
        _context.Console.MarkupLineInterpolated(
            $"    push: {result.Acknowledged:#,0} publications acknowledged ({result.Failed:#,0} failed); {result.Subscribers.Count(s => s.Interruptions.Count > 0)} subscribers resumed elsewhere; {result.Subscribers.Count(s => s.Problems.Count > 0)} with a problem");
        return result;
    }

    public async ValueTask DisposeAsync()
    {
        await _stopPublishing.CancelAsync();
        await _publishing;
        await StopFollowingAsync();
        _stopPublishing.Dispose();
        _stopFollowing.Dispose();
    }

    private async Task StopFollowingAsync()
    {
        await _stopFollowing.CancelAsync();
        await Task.WhenAll(_following); // FollowAsync does not throw: every end is caught and counted.
        foreach (var subscriber in _subscribers)
        {
            await subscriber.CloseAsync();
        }
    }

    private async Task PublishAsync()
    {
        var publisher = _context.Factory.CreatePushClient(_publisherBinding, _context.Endpoints[_publisherBinding]);
        try
        {
            while (!_stopPublishing.IsCancellationRequested)
            {
                try
                {
                    using var call = new CancellationTokenSource(_callTimeout);
                    var reply = await publisher.PublishAsync(new Notification { Topic = _topic, SentTimestamp = Stopwatch.GetTimestamp(), Items = ["chaos"] }, call.Token);
                    Interlocked.Increment(ref _acknowledged);
                    ChaosCounting.RaiseTo(ref _highestAcknowledged, reply.Sequence);
                }
                catch (Exception exception)
                {
                    // A publication whose reply was lost may still be in the topic: the subscribers' check counts from the replies that arrived.
                    Interlocked.Increment(ref _failed);
                    _publishErrors.Count(exception);
                    await CloseQuietlyAsync(publisher);
                    publisher = _context.Factory.CreatePushClient(_publisherBinding, _context.Endpoints[_publisherBinding]);
                }

                await Task.Delay(PublishInterval, CancellationToken.None);
            }
        }
        finally
        {
            await CloseQuietlyAsync(publisher);
        }
    }

    /// <summary>Closes a client, ignoring what a connection to a dead replica may throw on the way: it is closed either way.</summary>
    internal static async Task CloseQuietlyAsync(IAsyncDisposable client)
    {
        try
        {
            await client.DisposeAsync();
        }
        catch (Exception)
        {
            // Nothing to do: see the summary.
        }
    }
}
