using System.Collections.Concurrent;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// One connection carrying every asynchronous call of a client at once, told apart by call id:
/// callers write their request under a lock and return a task; a reader thread of the
/// connection's own receives the answers, in whatever order the server finishes the calls, and
/// completes each call's task (its continuation then runs on the thread pool).
/// </summary>
/// <remarks>
/// The socket stays blocking, as on the binding's other paths: a request is sent on the caller's
/// thread (it blocks only while the server's receive buffer, 1 MiB, is full). The process's only
/// call in flight reads its own reply for up to the spin budget before it returns its task (see
/// <see cref="ReadWhileWaiting"/>): a reply that comes that soon completes the task before anyone
/// awaits it, with no thread-pool hop. A failed connection fails every call waiting on it with the
/// reason and is replaced by the pool on the next call; one the server closed while no call was on it
/// is found by the pool's look after <see cref="FastClientOptions.IdleCheckAfter"/> (its reader may not
/// have been watching), so a close within that time of the last call fails the next one.
/// </remarks>
internal sealed partial class MultiplexedConnection : IDisposable
{
    private readonly FastTransport _transport;
    private readonly FastClientOptions _options;
    private readonly string _binding;
    private readonly Lock _sendLock = new();
    private readonly FrameWriter _writer = new();
    private readonly Lock _pendingLock = new();
    private readonly Dictionary<uint, PendingCall> _pending = [];
    private readonly ConcurrentDictionary<FastContract, Task<BoundContract>> _bound = new();
    private readonly Action<PendingCall, CancellationToken> _cancel;
    private uint _lastCallId;
    // When a frame last went out (Environment.TickCount64), under _sendLock; read without it by the idle look's first glance.
    private long _lastSent = Environment.TickCount64;
    private Exception? _broken;
    private volatile bool _sendFailed;

    private MultiplexedConnection(FastTransport transport, string binding, FastClientOptions options)
    {
        _transport = transport;
        _binding = binding;
        _options = options;
        _cancel = RequestCancel;
        _reader = new FrameReader(transport, options.MaxMessageSize);
        // Callers read their own replies only where the socket shows every byte to read: under TLS the reader thread reads them all.
        _spinTicks = transport.SocketShowsEverything ? SpinBeforeBlocking.Ticks(options.SpinWait) : 0;
        // Watching from the start: a server that refuses the connection says so at once, and its reason is
        // then every call's error. The reader stands down once callers read their own replies (ReaderGate).
        _readerGate.Want();
        new Thread(Read, 256 * 1024) { IsBackground = true, Name = $"{_binding} client reader" }.Start();
    }

    /// <summary>After a send failed with the server's answer waiting to be read, how long its reader has to read it before the connection is closed.</summary>
    internal static readonly TimeSpan SendFailedGrace = TimeSpan.FromSeconds(5);

    /// <summary>Failed or closed (by either side): the pool opens another for the next call.</summary>
    public bool IsBroken => _sendFailed || HasEnded;

    // Failed for reading too: every waiting call has been failed, nothing more will be read.
    private bool HasEnded => Volatile.Read(ref _broken) is not null;

    /// <summary>
    /// Whether the server closed this connection (its idle timeout) or said why it would, while no call
    /// was on it for <paramref name="after"/>: its reader was not watching then (<see cref="ReaderGate"/>),
    /// so the pool looks (one non-blocking poll) before it hands the connection out again.
    /// </summary>
    public bool ClosedWhileIdle(TimeSpan after)
    {
        if (Environment.TickCount64 - Volatile.Read(ref _lastSent) < after.TotalMilliseconds)
        {
            return false;
        }

        // Under the send lock: no call can be sent meanwhile, so bytes to read with none pending are no reply.
        lock (_sendLock)
        {
            return Environment.TickCount64 - _lastSent >= after.TotalMilliseconds && !HasPending && Readable();
        }
    }

    public static MultiplexedConnection Connect(FastEndpoint endpoint, FastClientOptions options) => new(endpoint.Connect(), endpoint.Binding, options);

    /// <summary>
    /// Starts a call of operation <paramref name="operation"/> of <paramref name="contract"/>: its
    /// reply, read with <paramref name="readReply"/> and turned into the method's result with
    /// <paramref name="map"/>, or the error the server answered. A one-way call completes with the
    /// default result once its request is sent.
    /// </summary>
    public Task<TResult> CallAsync<TRequest, TReply, TResult>(FastContract contract, int operation, OperationDescription description, TRequest request,
        BodyReader<TReply> readReply, Func<TReply, object?[], TResult>? map, object?[] args, CancellationToken cancellationToken)
    {
        // The first call of a contract binds it first; BindThenCallAsync is a method of its own, not a
        // local function, so its captures are no closure allocated on every call's way through here.
        return _bound.TryGetValue(contract, out var bound) && bound.IsCompletedSuccessfully
            ? Start(bound.Result.IdOf(operation, description), description, request, readReply, map, args, cancellationToken)
            : BindThenCallAsync(contract, operation, description, request, readReply, map, args, cancellationToken);
    }

    private async Task<TResult> BindThenCallAsync<TRequest, TReply, TResult>(FastContract contract, int operation, OperationDescription description, TRequest request,
        BodyReader<TReply> readReply, Func<TReply, object?[], TResult>? map, object?[] args, CancellationToken cancellationToken)
    {
        var bound = await Bind(contract).ConfigureAwait(false);
        return await Start(bound.IdOf(operation, description), description, request, readReply, map, args, cancellationToken).ConfigureAwait(false);
    }

    public void Dispose() => Break(new ObjectDisposedException(nameof(MultiplexedConnection), $"The {_binding} client was disposed."));

    /// <summary>
    /// Replaced in the pool by a new connection: closed now, unless a send failed with the server's
    /// answer still to read (the Error refusing an over-limit request), which its reader reads
    /// within the grace period (<see cref="EndAfterGrace"/>) before the connection ends.
    /// </summary>
    public void Retire()
    {
        if (!_sendFailed)
        {
            Dispose();
        }
    }

    private Task<BoundContract> Bind(FastContract contract)
    {
        var bound = _bound.GetOrAdd(contract, c =>
        {
            var call = new PendingReply<BoundContract, BoundContract>(null, FrameKind.Bound, body => BoundContract.Read(body, c));
            Send(call, FrameKind.Bind, 0, static (writer, c) => Body.WriteProtocol(writer, new BindBody { Service = c.ServiceName, Operations = [.. c.OperationNames] }), c);
            _readerGate.Want();
            return call.Task;
        });
        if (bound.IsFaulted)
        {
            // Not kept: the next call binds again (on this connection if it is still good, else on the next).
            _bound.TryRemove(new KeyValuePair<FastContract, Task<BoundContract>>(contract, bound));
        }

        return bound;
    }

    private Task<TResult> Start<TRequest, TReply, TResult>(ushort id, OperationDescription description, TRequest request, BodyReader<TReply> readReply,
        Func<TReply, object?[], TResult>? map, object?[] args, CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return Task.FromCanceled<TResult>(cancellationToken);
        }

        if (description.IsOneWay)
        {
            // WCF's one-way semantics: done once the request is handed to the transport; call id 0 asks for no answer.
            SendOneWay(id, request);
            return Task.FromResult(default(TResult)!);
        }

        var call = new PendingReply<TReply, TResult>(description, FrameKind.Reply, readReply, map, args);
        if (cancellationToken.CanBeCanceled || _options.CallTimeout != Timeout.InfiniteTimeSpan)
        {
            call.Watch(_options.CallTimeout, _cancel, cancellationToken);
        }

        Send(call, FrameKind.Request, id, static (writer, request) => Body.WriteMessage(writer, request), request);
        ReadWhileWaiting(call);
        if (!call.IsCompleted)
        {
            // Not answered within the caller's spin (or it did not spin): the reader thread's to read.
            _readerGate.Want();
        }

        return call.Task;
    }
}
