using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Protobuf.Mapping;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// A connection that speaks the frames by hand: binds the probe and sends requests without waiting
/// for their replies, to see what the server answers and in which order. Receives time out after 10 s.
/// </summary>
internal sealed class RawFastConnection : IDisposable
{
    private readonly Socket _socket;
    private readonly FrameReader _reader;
    private readonly FrameWriter _writer = new();

    /// <summary>To a fast-uds server's socket path, or a fast-tcp server's tcp://host:port address.</summary>
    public RawFastConnection(string address)
    {
        if (address.StartsWith("tcp://", StringComparison.Ordinal))
        {
            var uri = new Uri(address);
            // A receive window of a slow reader's size (loopback's autotuned one would hold a whole large reply), above twice
            // loopback's 64-KB segment so that each read reopens it at once (smaller, the sender waits on its zero-window probes).
            _socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, ReceiveBufferSize = 256 * 1024 };
            _socket.Connect(System.Net.IPAddress.Parse(uri.Host), uri.Port);
        }
        else
        {
            _socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            _socket.Connect(new UnixDomainSocketEndPoint(address));
        }

        _socket.ReceiveTimeout = 10_000;
        _reader = new FrameReader(new SocketTransport(_socket), 64 * 1024 * 1024);
    }

    public Socket Socket => _socket;

    /// <summary>Binds every operation of <typeparamref name="TContract"/>; the ids by operation name.</summary>
    public Dictionary<string, ushort> Bind<TContract>()
    {
        var messages = ContractMessages.For(typeof(TContract));
        _writer.Reset();
        Body.WriteProtocol(_writer, new BindBody { Service = messages.ServiceName, Operations = [.. messages.Operations.Select(o => o.Name)] });
        Send(_writer.Complete(FrameKind.Bind, 0, 1));
        var (header, body) = Read();
        Assert.Equal((FrameKind.Bound, 1u), (header.Kind, header.CallId));
        var ids = Body.ReadProtocol<BoundBody>(body).Ids;
        return messages.Operations.Select((o, i) => (o.Name, Id: (ushort)ids[i])).ToDictionary(p => p.Name, p => p.Id);
    }

    /// <summary>Sends a request whose message is <paramref name="message"/> (an operation's request type).</summary>
    public void Request<TMessage>(ushort operation, uint callId, TMessage message)
    {
        _writer.Reset();
        Body.WriteMessage(_writer, message);
        Send(_writer.Complete(FrameKind.Request, operation, callId));
    }

    /// <summary>Sends Echo(<paramref name="value"/>) as a traced client does: flagged, <paramref name="caller"/>'s context before the message.</summary>
    public void TracedRequest(ushort operation, uint callId, System.Diagnostics.Activity caller, int value)
    {
        _writer.Reset();
        TraceContext.Write(_writer.GetSpan(TraceContext.Size), caller);
        _writer.Advance(TraceContext.Size);
        Body.WriteMessage(_writer, new EchoValue { Value = value });
        var frame = _writer.Complete(FrameKind.Request, operation, callId).ToArray();
        frame[5] = (byte)FrameFlags.TraceContext;
        Send(frame);
    }

    public void Send(ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            bytes = bytes[_socket.Send(bytes)..];
        }
    }

    /// <summary>The next frame, its body copied; fails the test when the server closed the connection instead.</summary>
    public (FrameHeader Header, byte[] Body) Read() =>
        _reader.TryRead(out var header, out var body) ? (header, body.ToArray()) : throw new Xunit.Sdk.XunitException("The server closed the connection.");

    /// <summary>The next frame, or null once the server has closed the connection.</summary>
    public (FrameHeader Header, byte[] Body)? ReadOrClosed()
    {
        try
        {
            return _reader.TryRead(out var header, out var body) ? (header, body.ToArray()) : null;
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionReset)
        {
            return null;
        }
    }

    public void Dispose()
    {
        _socket.Dispose();
        _reader.Dispose();
        _writer.Dispose();
    }
}
