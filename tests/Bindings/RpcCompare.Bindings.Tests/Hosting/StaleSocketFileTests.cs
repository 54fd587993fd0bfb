using System.Net.Sockets;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests.Hosting;

/// <summary>
/// The socket file a killed host leaves behind is removed before a Unix-socket binding binds (the
/// kill -9 test restarts every binding on it); a live server's socket is never taken over.
/// </summary>
public sealed class StaleSocketFileTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void ASocketNobodyListensOn_IsRemoved()
    {
        var path = Path.Combine(_directory.FullPath, "left-behind.sock");
        // Bound but not listening: the file is there and a connect is refused, as with the file a
        // SIGKILLed server leaves (a disposed .NET socket would remove its own file).
        using var bound = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        bound.Bind(new UnixDomainSocketEndPoint(path));
        Assert.True(File.Exists(path));

        StaleSocketFile.RemoveIfStale(path);

        Assert.False(File.Exists(path));
    }

    [Fact]
    public void ALiveServersSocket_IsRefused_AndKept()
    {
        var path = Path.Combine(_directory.FullPath, "live.sock");
        using var listener = Listen(path);

        var error = Assert.Throws<InvalidOperationException>(() => StaleSocketFile.RemoveIfStale(path));

        Assert.Contains("is the socket of a server that is still running", error.Message, StringComparison.Ordinal);
        Assert.True(File.Exists(path));
    }

    [Fact]
    public void NoFile_IsNothingToDo()
    {
        var path = Path.Combine(_directory.FullPath, "none.sock");

        StaleSocketFile.RemoveIfStale(path);

        Assert.False(File.Exists(path));
    }

    [Fact]
    public void ARegularFileAtThePath_IsRefused_AndKept()
    {
        // A mistyped option (the data file's path given as the socket's) must never cost the file;
        // connecting to it is refused just as for a stale socket. (Before: it was deleted.)
        var path = Path.Combine(_directory.FullPath, "data.bin");
        File.WriteAllText(path, "precious");

        var error = Assert.Throws<InvalidOperationException>(() => StaleSocketFile.RemoveIfStale(path));

        Assert.Equal($"'{path}' exists and is not a socket; remove it or give this binding another path.", error.Message);
        Assert.Equal("precious", File.ReadAllText(path));
    }

    public void Dispose() => _directory.Dispose();

    private static Socket Listen(string path)
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        socket.Bind(new UnixDomainSocketEndPoint(path));
        socket.Listen();
        return socket;
    }
}
