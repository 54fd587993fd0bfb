using System.IO.Pipes;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using BenchmarkDotNet.Attributes;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts;

namespace RpcCompare.Benchmarks;

/// <summary>
/// Where the raw pipe's bytes per round trip go: one 12-byte echo over a Unix domain socket as
/// a bare Socket, as System.IO.Pipes streams, and through RpcCompare's pipes binding (client proxy,
/// framing, dispatcher, service), every case both ends in this process. MemoryDiagnoser counts
/// every thread, so each figure is client and server together; the difference between rows is
/// what each layer adds.
/// </summary>
[MemoryDiagnoser]
public class PipeRoundTripBenchmarks
{
    // A pipes frame of a 12-byte echo is about this long; the raw cases send exactly this many bytes.
    private const int MessageBytes = 21;

    private readonly byte[] _clientBuffer = new byte[MessageBytes];
    private readonly BytesMessage _request = new() { Data = new byte[12] };
    private readonly CancellationTokenSource _stop = new();
    private string _directory = null!;
    private Socket _socket = null!;
    private NamedPipeClientStream _pipe = null!;
    private IHost _host = null!;
    private IPayloadService _pipes = null!;
    private IFileService _files = null!;
    private readonly PingRequest _ping = new();
    private readonly List<Task> _servers = [];

    [GlobalSetup]
    public void Setup()
    {
        _directory = Directory.CreateTempSubdirectory("rpccompare-bench-").FullName;

        var socketPath = Path.Combine(_directory, "socket.sock");
        var listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        listener.Bind(new UnixDomainSocketEndPoint(socketPath));
        listener.Listen();
        _servers.Add(SocketEchoAsync(listener));
        _socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        _socket.Connect(new UnixDomainSocketEndPoint(socketPath));

        var pipePath = Path.Combine(_directory, "pipe.sock");
        var server = new NamedPipeServerStream(pipePath, PipeDirection.InOut, 1, PipeTransmissionMode.Byte, PipeOptions.Asynchronous);
        _servers.Add(PipeEchoAsync(server));
        _pipe = new NamedPipeClientStream(".", pipePath, PipeDirection.InOut, PipeOptions.Asynchronous);
        _pipe.Connect(5_000);

        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Services.AddRpcCompareServices(configure: o => o.Path = Path.Combine(_directory, "data"));
        builder.Services.AddPipesBinding(configure: o => o.Path = Path.Combine(_directory, "pipes.sock"));
        _host = builder.Build();
        _host.Start();
        _pipes = RpcClientFactory.CreateDefault().Create<IPayloadService>(BindingNames.Pipes, Path.Combine(_directory, "pipes.sock"));
        _files = RpcClientFactory.CreateDefault().Create<IFileService>(BindingNames.Pipes, Path.Combine(_directory, "pipes.sock"));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _stop.Cancel();
        _socket.Dispose();
        _pipe.Dispose();
        RpcClientFactory.ReleaseAsync(_pipes).AsTask().GetAwaiter().GetResult();
        RpcClientFactory.ReleaseAsync(_files).AsTask().GetAwaiter().GetResult();
        _host.StopAsync().GetAwaiter().GetResult();
        _host.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    // Pooled state machines and inline read loops, as the binding's own CallAsync has: a raw case
    // allocates only what the socket or stream allocates.
    [Benchmark(Baseline = true, Description = "Socket (UDS), ValueTask send/receive")]
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<int> BareSocket()
    {
        await _socket.SendAsync(_clientBuffer.AsMemory(), SocketFlags.None);
        var read = 0;
        while (read < MessageBytes)
        {
            read += await _socket.ReceiveAsync(_clientBuffer.AsMemory(read), SocketFlags.None);
        }

        return read;
    }

    [Benchmark(Description = "System.IO.Pipes streams, ValueTask write/read")]
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<int> PipeStreams()
    {
        await _pipe.WriteAsync(_clientBuffer.AsMemory());
        var read = 0;
        while (read < MessageBytes)
        {
            read += await _pipe.ReadAsync(_clientBuffer.AsMemory(read));
        }

        return read;
    }

    [Benchmark(Description = "RpcCompare pipes binding, Ping")]
    public Task<PingReply> PipesBindingPing() => _files.PingAsync(_ping);

    [Benchmark(Description = "RpcCompare pipes binding, EchoBytes 12 B")]
    public Task<BytesMessage> PipesBindingEcho() => _pipes.EchoBytesAsync(_request);

    // The echo servers: one state machine each for the connection's life, so a round trip costs
    // them only what their socket or stream allocates.
    private async Task SocketEchoAsync(Socket listener)
    {
        using var connection = await listener.AcceptAsync();
        listener.Dispose();
        var buffer = new byte[MessageBytes];
        while (!_stop.IsCancellationRequested)
        {
            for (var read = 0; read < MessageBytes;)
            {
                var n = await connection.ReceiveAsync(buffer.AsMemory(read), SocketFlags.None);
                if (n == 0)
                {
                    return;
                }

                read += n;
            }

            await connection.SendAsync(buffer.AsMemory(), SocketFlags.None);
        }
    }

    private async Task PipeEchoAsync(NamedPipeServerStream server)
    {
        await using var _ = server;
        await server.WaitForConnectionAsync();
        var buffer = new byte[MessageBytes];
        while (!_stop.IsCancellationRequested)
        {
            for (var read = 0; read < MessageBytes;)
            {
                var n = await server.ReadAsync(buffer.AsMemory(read));
                if (n == 0)
                {
                    return;
                }

                read += n;
            }

            await server.WriteAsync(buffer.AsMemory());
        }
    }
}
