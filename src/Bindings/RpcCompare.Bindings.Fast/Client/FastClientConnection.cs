using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// One connection to a fast server, used by one call at a time (the pool hands it out): the
/// caller's thread sends the request and blocks in the receive for its reply, no thread-pool hop
/// on the way (the binding's blocking mode). A connection that failed in any way but an error
/// reply is <see cref="IsBroken"/> and is not reused.
/// </summary>
internal sealed partial class FastClientConnection : IFrameSender, IDisposable
{
    private readonly FastTransport _transport;
    private readonly FrameReader _reader;
    private readonly FrameWriter _writer = new();
    private readonly FastClientOptions _options;
    private readonly string _binding;
    private readonly Dictionary<FastContract, BoundContract> _bound = [];
    private uint _lastCallId;
    private bool _isBroken;

    private FastClientConnection(FastTransport transport, string binding, FastClientOptions options)
    {
        _transport = transport;
        _binding = binding;
        _options = options;
        // Stream chunks are up to 64 KiB whatever the message limit; a reply's own limit is checked in Answer.
        _reader = new FrameReader(transport, Math.Max(options.MaxMessageSize, StreamChunks.Size)) {
            SpinTicks = SpinBeforeBlocking.Ticks(options.SpinWait),
            // Only the process's one call in flight spins: several callers need the cores to read their replies.
            MaySpin = static () => FastConnectionPool.CallsInFlight.Count <= 1,
        };
    }

    // Volatile: a streamed call's timeout or cancellation breaks the connection from another thread (Abort).
    public bool IsBroken { get => Volatile.Read(ref _isBroken); private set => Volatile.Write(ref _isBroken, value); }

    /// <summary>How long a call may take (<see cref="FastClientOptions.CallTimeout"/>): a reply stream's wait for each chunk too.</summary>
    public TimeSpan CallTimeout => _options.CallTimeout;

    /// <summary>When the connection last finished a call (Environment.TickCount64).</summary>
    public long LastUsed { get; private set; } = Environment.TickCount64;

    public static FastClientConnection Connect(FastEndpoint endpoint, FastClientOptions options) => new(endpoint.Connect(), endpoint.Binding, options);

    /// <summary>
    /// Whether the server closed this connection while it sat in the pool (its idle timeout): a
    /// connection with no call in flight has nothing to read unless it was closed (or told why).
    /// </summary>
    public bool ClosedWhileIdle()
    {
        try
        {
            return _transport.Socket.Poll(0, SelectMode.SelectRead);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            return true;
        }
    }

    /// <summary>
    /// One call: the request out, the reply (or the error the server sent) back. A Stream request
    /// (<paramref name="streamIn"/>) is sent in chunks after an empty request; a Stream reply
    /// (<paramref name="streamOut"/>) is returned as a <see cref="ReplyStream"/> that reads the chunks as
    /// the caller reads and gives this connection back to <paramref name="pool"/> at the stream's end.
    /// </summary>
    public TReply Call<TRequest, TReply>(FastContract contract, int operation, OperationDescription description, TRequest request,
        bool streamIn = false, bool streamOut = false, FastConnectionPool? pool = null, CancellationToken cancellationToken = default)
    {
        var id = Bind(contract).IdOf(operation, description);

        if (streamIn || streamOut)
        {
            return CallStreamed<TRequest, TReply>(id, description, request, streamIn, streamOut, pool, cancellationToken);
        }

        _writer.ResetRequest();
        Body.WriteMessage(_writer, request);
        ThrowIfTooLarge();
        if (description.IsOneWay)
        {
            // WCF's one-way semantics: done once the request is handed to the transport; call id 0 asks for no answer.
            if (!Send(_writer.Complete(FrameKind.Request, id, 0)))
            {
                throw new IOException($"The {_binding} server closed the connection; the one-way call was not sent.");
            }

            LastUsed = Environment.TickCount64;
            return default!;
        }

        var callId = NextCallId();
        var frame = _writer.Complete(FrameKind.Request, id, callId);
        return cancellationToken.CanBeCanceled || _options.CallTimeout != Timeout.InfiniteTimeSpan
            ? Replies.Read<TReply>(CancellableExchange(frame, callId, description, cancellationToken), description)
            : Replies.Read<TReply>(Exchange(frame, callId, FrameKind.Reply, description), description);
    }

    /// <summary>
    /// Closes the connection under a call in progress, from any thread (a streamed call's timeout or
    /// cancellation, <see cref="StreamedWait"/>): the caller's blocked send or receive returns, and the
    /// connection is not reused. The caller's thread still disposes it.
    /// </summary>
    public void Abort()
    {
        IsBroken = true;
        _transport.ShutDown();
    }

    public void Dispose()
    {
        IsBroken = true;
        _transport.Dispose();
        _reader.Dispose();
        _writer.Dispose();
    }

    private BoundContract Bind(FastContract contract)
    {
        if (_bound.TryGetValue(contract, out var bound))
        {
            return bound;
        }

        _writer.Reset();
        Body.WriteProtocol(_writer, new BindBody { Service = contract.ServiceName, Operations = [.. contract.OperationNames] });
        var callId = NextCallId();
        try
        {
            bound = BoundContract.Read(Exchange(_writer.Complete(FrameKind.Bind, 0, callId), callId, FrameKind.Bound, null), contract);
        }
        catch (IOException)
        {
            IsBroken = true;
            throw;
        }

        _bound[contract] = bound;
        return bound;
    }

    /// <summary>Sends a frame and reads until its answer: the body of a <paramref name="expected"/> frame, or the error it got thrown.</summary>
    private ReadOnlySpan<byte> Exchange(ReadOnlySpan<byte> frame, uint callId, FrameKind expected, OperationDescription? operation)
    {
        Send(frame);
        return Answer(callId, expected, operation);
    }

    /// <summary>
    /// Sends a whole frame; false when the send failed but the server has something to say (a server
    /// that refused the connection, or a request, told us why before it closed: that is read next).
    /// Either way a failed send breaks the connection.
    /// </summary>
    private bool Send(ReadOnlySpan<byte> frame)
    {
        try
        {
            _transport.Send(frame);
            return true;
        }
        catch (SocketException e)
        {
            IsBroken = true;
            return _transport.Socket.Poll(0, SelectMode.SelectRead) ? false : throw new IOException($"The {_binding} connection failed: {e.Message}", e);
        }
        catch (FastProtocolException e)
        {
            IsBroken = true;
            throw new IOException($"The {_binding} connection failed: {e.Message}", e);
        }
    }

    /// <summary>Reads the answer to <paramref name="callId"/>: the body of a <paramref name="expected"/> frame; an Error frame is thrown as its exception.</summary>
    private ReadOnlySpan<byte> Answer(uint callId, FrameKind expected, OperationDescription? operation)
    {
        var kind = Receive(callId, operation, out var body);
        if (kind == FrameKind.Cancel && _cancel.Requested)
        {
            // The server took the call out: nothing more comes for it.
            LastUsed = Environment.TickCount64;
            throw new CallCancelledException();
        }

        if (kind != expected)
        {
            IsBroken = true;
            throw Unexpected(callId, kind, callId);
        }

        if (body.Length > _options.MaxMessageSize)
        {
            // Read whole (it was no larger than a stream chunk): the connection is fine.
            throw FastClientErrors.ReplyTooLarge(body.Length, _options.MaxMessageSize);
        }

        LastUsed = Environment.TickCount64;
        return body;
    }

    /// <summary>
    /// The next frame for <paramref name="callId"/>. An Error frame is thrown: for the call, the
    /// connection stays good; for the connection (id 0), it is broken. Anything else breaks it too.
    /// </summary>
    private FrameKind Receive(uint callId, OperationDescription? operation, out ReadOnlySpan<byte> body)
    {
        try
        {
            if (!_reader.TryRead(out var header, out body))
            {
                IsBroken = true;
                throw new IOException($"The {_binding} server closed the connection before it answered.");
            }

            if (header.Kind == FrameKind.Error && (header.CallId == callId || header.CallId == 0))
            {
                if (header.CallId == 0)
                {
                    // Not |=: a read-then-write could undo an Abort from another thread in between.
                    IsBroken = true;
                }

                LastUsed = Environment.TickCount64;
                ErrorBody error;
                try
                {
                    error = Body.ReadProtocol<ErrorBody>(body);
                }
                catch (ProtoBuf.ProtoException e)
                {
                    IsBroken = true;
                    throw new IOException($"The {_binding} server sent an error that is not an error message: {e.Message}", e);
                }

                throw FastErrors.ToException(error, operation);
            }

            if (header.CallId != callId)
            {
                IsBroken = true;
                throw Unexpected(callId, header.Kind, header.CallId);
            }

            return header.Kind;
        }
        catch (FrameTooLargeException e)
        {
            IsBroken = true;
            throw FastClientErrors.ReplyTooLarge(e.BodyLength, _options.MaxMessageSize);
        }
        catch (FastProtocolException e)
        {
            IsBroken = true;
            throw new IOException($"The {_binding} server sent bytes that are not the protocol: {e.Message}", e);
        }
        catch (Exception e) when (e is SocketException or EndOfStreamException)
        {
            IsBroken = true;
            throw new IOException($"The {_binding} connection failed: {e.Message}", e);
        }
    }

    private IOException Unexpected(uint callId, FrameKind kind, uint answeredId) =>
        new($"The {_binding} server answered call {callId} with a {kind} frame for call {answeredId}.");

    private void ThrowIfTooLarge()
    {
        if (_writer.MessageLength > _options.MaxMessageSize)
        {
            throw FastClientErrors.RequestTooLarge(_writer.MessageLength, _options.MaxMessageSize);
        }
    }

    // Never 0, which means the connection itself.
    private uint NextCallId() => ++_lastCallId == 0 ? ++_lastCallId : _lastCallId;
}
