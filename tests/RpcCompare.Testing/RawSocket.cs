using System.Net;
using System.Net.Sockets;

namespace RpcCompare.Testing;

/// <summary>
/// A bare socket to a binding's listener, for sending what no client library would: random
/// bytes, truncated frames, a connection dropped mid-message.
/// </summary>
public sealed class RawSocket : IAsyncDisposable
{
    private readonly Socket _socket;

    private RawSocket(Socket socket)
    {
        _socket = socket;
    }

    /// <summary>Connects to a Unix socket path, or to host:port for an http://, net.tcp:// address.</summary>
    public static async Task<RawSocket> ConnectAsync(string address)
    {
        EndPoint endpoint = Uri.TryCreate(address, UriKind.Absolute, out var uri) && uri.Port > 0
            ? new IPEndPoint(IPAddress.Parse(uri.Host), uri.Port)
            : new UnixDomainSocketEndPoint(address);
        var socket = endpoint is UnixDomainSocketEndPoint
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(endpoint).Bounded();
        return new RawSocket(socket);
    }

    /// <summary>Random bytes that are no valid frame of any protocol (seeded, so a failure repeats).</summary>
    public static byte[] Garbage(int length, int seed = 42)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        bytes[0] = 0xFF; // No framing, HTTP/2 preface or HTTP method starts with 0xFF.
        return bytes;
    }

    /// <summary>Connects, sends 4 KiB of garbage and reports whether the server closed the connection within 10 seconds.</summary>
    public static async Task<bool> GarbageIsRejectedAsync(string address)
    {
        await using var raw = await ConnectAsync(address);
        await raw.SendAsync(Garbage(4096));
        return (await raw.ReadUntilClosedAsync(TimeSpan.FromSeconds(10))).Closed;
    }

    public async Task SendAsync(byte[] bytes)
    {
        try
        {
            await _socket.SendAsync(bytes).Bounded();
        }
        catch (SocketException)
        {
            // The server may close the connection while the rest is still being sent; what it did is read afterwards.
        }
    }

    /// <summary>
    /// Reads until the server closes the connection, or <paramref name="timeout"/> passes; returns what
    /// arrived and whether the server closed. A reset counts as closed.
    /// </summary>
    public async Task<(byte[] Received, bool Closed)> ReadUntilClosedAsync(TimeSpan timeout)
    {
        using var received = new MemoryStream();
        var buffer = new byte[64 * 1024];
        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            while (true)
            {
                var count = await _socket.ReceiveAsync(buffer, deadline.Token);
                if (count == 0)
                {
                    return (received.ToArray(), true);
                }

                received.Write(buffer, 0, count);
            }
        }
        catch (OperationCanceledException)
        {
            return (received.ToArray(), false);
        }
        catch (SocketException)
        {
            return (received.ToArray(), true);
        }
    }

    /// <summary>Closes abruptly (RST on TCP), as a client that crashed mid-message would.</summary>
    public void Abort() => _socket.Close(0);

    public ValueTask DisposeAsync()
    {
        _socket.Dispose();
        return ValueTask.CompletedTask;
    }
}
