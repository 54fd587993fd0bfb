using System.Buffers.Binary;
using System.IO.Pipes;
using System.Text;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>A client that writes whatever bytes a test wants, to see what the server makes of them.</summary>
internal sealed class RawPipeConnection : IAsyncDisposable
{
    private readonly NamedPipeClientStream _stream;

    private RawPipeConnection(NamedPipeClientStream stream)
    {
        _stream = stream;
    }

    public static async Task<RawPipeConnection> ConnectAsync(string path)
    {
        var stream = new NamedPipeClientStream(".", path, PipeDirection.InOut, PipeOptions.Asynchronous);
        await stream.ConnectAsync(5000).Bounded();
        return new RawPipeConnection(stream);
    }

    public static byte[] Frame(uint length, byte code, ReadOnlySpan<byte> body)
    {
        var frame = new byte[5 + body.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(frame, length);
        frame[4] = code;
        body.CopyTo(frame.AsSpan(5));
        return frame;
    }

    /// <summary>An EchoBytes request for <paramref name="payload"/>: its length, then its bytes.</summary>
    public static byte[] EchoFrame(byte[] payload)
    {
        var body = new byte[4 + payload.Length];
        BinaryPrimitives.WriteInt32LittleEndian(body, payload.Length);
        payload.CopyTo(body, 4);
        return Frame((uint)body.Length, (byte)OperationCode.EchoBytes, body);
    }

    public Task SendAsync(byte[] bytes) => _stream.WriteAsync(bytes).AsTask().Bounded();

    /// <summary>Sends an empty call and returns the reply's status: proves the connection still works.</summary>
    public async Task<byte?> PingAsync()
    {
        await SendAsync(Frame(0, (byte)Protocol.OperationCode.Ping, []));
        return (await ReadReplyAsync())?.Status;
    }

    /// <summary>Reads one reply frame; null when the server closed the connection instead.</summary>
    public async Task<(byte Status, string Message)?> ReadReplyAsync() =>
        await ReadReplyBytesAsync() is { } reply ? (reply.Status, Encoding.UTF8.GetString(reply.Body)) : null;

    /// <summary>Reads one reply frame as its status and body bytes; null when the server closed the connection instead.</summary>
    public async Task<(byte Status, byte[] Body)?> ReadReplyBytesAsync()
    {
        var header = new byte[5];
        try
        {
            await _stream.ReadExactlyAsync(header).AsTask().Bounded();
        }
        catch (Exception exception) when (exception is EndOfStreamException or IOException)
        {
            return null;
        }

        var body = new byte[BinaryPrimitives.ReadUInt32LittleEndian(header)];
        await _stream.ReadExactlyAsync(body).AsTask().Bounded();
        return (header[4], body);
    }

    /// <summary>True once the server has closed its end (a read returns end of stream).</summary>
    public async Task<bool> IsClosedByServerAsync()
    {
        var buffer = new byte[1];
        try
        {
            return await _stream.ReadAsync(buffer).AsTask().Bounded() == 0;
        }
        catch (IOException)
        {
            return true;
        }
    }

    public ValueTask DisposeAsync() => _stream.DisposeAsync();
}
