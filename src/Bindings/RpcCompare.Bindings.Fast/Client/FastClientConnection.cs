using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// One connection to a fast-uds server, used by one call at a time (the pool hands it out): the
/// caller's thread sends the request and blocks in the receive for its reply, no thread-pool hop
/// on the way (the binding's blocking mode). A connection that failed in any way but an error
/// reply is <see cref="IsBroken"/> and is not reused.
/// </summary>
internal sealed class FastClientConnection : IDisposable
{
    private readonly Socket _socket;
    private readonly FrameReader _reader;
    private readonly FrameWriter _writer = new();
    private readonly FastClientOptions _options;
    private readonly Dictionary<FastContract, (ushort[] Ids, List<string> Refusals)> _bound = [];
    private uint _lastCallId;

    private FastClientConnection(Socket socket, FastClientOptions options)
    {
        _socket = socket;
        _options = options;
        _reader = new FrameReader(socket, options.MaxMessageSize);
    }

    public bool IsBroken { get; private set; }

    /// <summary>When the connection last finished a call (Environment.TickCount64).</summary>
    public long LastUsed { get; private set; } = Environment.TickCount64;

    public static FastClientConnection Connect(string path, FastClientOptions options)
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            socket.Connect(new UnixDomainSocketEndPoint(path));
            return new FastClientConnection(socket, options);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Whether the server closed this connection while it sat in the pool (its idle timeout): a
    /// connection with no call in flight has nothing to read unless it was closed (or told why).
    /// </summary>
    public bool ClosedWhileIdle()
    {
        try
        {
            return _socket.Poll(0, SelectMode.SelectRead);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            return true;
        }
    }

    /// <summary>One call: the request out, the reply (or the error the server sent) back.</summary>
    public TReply Call<TRequest, TReply>(FastContract contract, int operation, OperationDescription description, TRequest request)
    {
        var (ids, refusals) = Bind(contract);
        var id = ids[operation];
        if (id == 0)
        {
            throw new RpcServiceException(RpcErrorCode.NotFound, $"{description.Name}: {refusals[ids.Take(operation).Count(i => i == 0)]}");
        }

        _writer.Reset();
        Body.WriteMessage(_writer, request);
        ThrowIfTooLarge();
        if (description.IsOneWay)
        {
            // WCF's one-way semantics: done once the request is handed to the transport; call id 0 asks for no answer.
            SendOneWay(_writer.Complete(FrameKind.Request, id, 0));
            return default!;
        }

        var callId = NextCallId();
        var body = Exchange(_writer.Complete(FrameKind.Request, id, callId), callId, FrameKind.Reply, description);
        return Body.ReadMessage<TReply>(body);
    }

    public void Dispose()
    {
        IsBroken = true;
        _socket.Dispose();
        _reader.Dispose();
        _writer.Dispose();
    }

    private (ushort[] Ids, List<string> Refusals) Bind(FastContract contract)
    {
        if (_bound.TryGetValue(contract, out var bound))
        {
            return bound;
        }

        _writer.Reset();
        Body.WriteProtocol(_writer, new BindBody { Service = contract.ServiceName, Operations = [.. contract.OperationNames] });
        var callId = NextCallId();
        var reply = Body.ReadProtocol<BoundBody>(Exchange(_writer.Complete(FrameKind.Bind, 0, callId), callId, FrameKind.Bound, null));
        if (reply.Ids.Count != contract.OperationNames.Count)
        {
            IsBroken = true;
            throw new IOException($"The fast-uds server answered a bind of {contract.OperationNames.Count} operations with {reply.Ids.Count} ids.");
        }

        bound = ([.. reply.Ids.Select(i => (ushort)i)], reply.Refusals);
        _bound[contract] = bound;
        return bound;
    }

    /// <summary>Sends a frame and reads until its answer: the body of a <paramref name="expected"/> frame, or the error it got thrown.</summary>
    private ReadOnlySpan<byte> Exchange(ReadOnlySpan<byte> frame, uint callId, FrameKind expected, OperationDescription? operation)
    {
        var clean = false;
        try
        {
            SocketException? sendFailed = null;
            try
            {
                while (!frame.IsEmpty)
                {
                    frame = frame[_socket.Send(frame)..];
                }
            }
            catch (SocketException e)
            {
                // A server that refused the connection told us why before it closed: read that first.
                sendFailed = e;
            }

            if (sendFailed is not null && !_socket.Poll(0, SelectMode.SelectRead))
            {
                throw sendFailed;
            }

            if (!_reader.TryRead(out var header, out var body))
            {
                throw new IOException("The fast-uds server closed the connection before it answered.");
            }

            if (header.Kind == FrameKind.Error && (header.CallId == callId || header.CallId == 0))
            {
                var error = FastErrors.ToException(Body.ReadProtocol<ErrorBody>(body), operation);
                // An error for the call leaves the connection as good as before; one for the connection (id 0) ends it.
                clean = header.CallId == callId;
                throw error;
            }

            if (header.Kind != expected || header.CallId != callId)
            {
                throw new IOException($"The fast-uds server answered call {callId} with a {header.Kind} frame for call {header.CallId}.");
            }

            clean = true;
            LastUsed = Environment.TickCount64;
            return body;
        }
        catch (FrameTooLargeException e)
        {
            throw new RpcServiceException(RpcErrorCode.QuotaExceeded,
                $"The reply is {e.BodyLength:#,0} bytes, over the client's limit of {_options.MaxMessageSize:#,0} bytes (FastClientOptions.MaxMessageSize).");
        }
        catch (FastProtocolException e)
        {
            throw new IOException($"The fast-uds server sent bytes that are not the protocol: {e.Message}", e);
        }
        catch (SocketException e)
        {
            throw new IOException($"The fast-uds connection failed: {e.Message}", e);
        }
        finally
        {
            IsBroken |= !clean;
        }
    }

    private void SendOneWay(ReadOnlySpan<byte> frame)
    {
        try
        {
            while (!frame.IsEmpty)
            {
                frame = frame[_socket.Send(frame)..];
            }

            LastUsed = Environment.TickCount64;
        }
        catch (SocketException e)
        {
            IsBroken = true;
            throw new IOException($"The fast-uds connection failed: {e.Message}", e);
        }
    }

    private void ThrowIfTooLarge()
    {
        if (_writer.BodyLength > _options.MaxMessageSize)
        {
            throw new RpcServiceException(RpcErrorCode.QuotaExceeded,
                $"The request is {_writer.BodyLength:#,0} bytes, over the client's limit of {_options.MaxMessageSize:#,0} bytes (FastClientOptions.MaxMessageSize); nothing was sent.");
        }
    }

    // Never 0, which means the connection itself.
    private uint NextCallId() => ++_lastCallId == 0 ? ++_lastCallId : _lastCallId;
}
