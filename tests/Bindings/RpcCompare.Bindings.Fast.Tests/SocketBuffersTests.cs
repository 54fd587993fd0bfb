using System.Globalization;
using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Transport;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>The send buffer fast-uds gives its sockets: room for a 248,832-byte message where the kernel allows it.</summary>
public sealed class SocketBuffersTests
{
    [Fact]
    public void ASocket_GetsTheLargerSendBuffer_UpToTheKernelsCap()
    {
        using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        var before = socket.SendBufferSize;
        // Linux caps a requested size at net.core.wmem_max without an error, and reports twice what it keeps.
        var cap = int.Parse(File.ReadAllText("/proc/sys/net/core/wmem_max").Trim(), CultureInfo.InvariantCulture);

        SocketBuffers.Apply(socket);

        Assert.Equal(2 * Math.Min(SocketBuffers.SendBufferSize, cap), socket.SendBufferSize);
        Assert.True(cap <= before / 2 || socket.SendBufferSize > before, $"{before} -> {socket.SendBufferSize} (cap {cap})");
    }
}
