using BenchmarkDotNet.Attributes;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Client;
using RpcCompare.Contracts;

namespace RpcCompare.Benchmarks;

/// <summary>
/// fast-uds beside the raw pipe on the same two calls (Ping, a 12-byte echo), one host serving
/// both over Unix sockets in this process, the pipes echo the baseline: the ratio and the bytes
/// per round trip (client and server together, MemoryDiagnoser counts every thread). A second
/// host serves fast-uds through its reflection path (GeneratedCode off on both sides), for what
/// the generated code is worth (and for --allocation-trace's types).
/// </summary>
[MemoryDiagnoser]
public class FastRoundTripBenchmarks
{
    private static readonly string[] s_services = ["FileService", "PayloadService"];
    private readonly BytesMessage _request = new() { Data = new byte[12] };
    private readonly PingRequest _ping = new();
    private string _directory = null!;
    private IHost _host = null!;
    private IPayloadService _pipesPayload = null!;
    private IFileService _pipesFiles = null!;
    private IPayloadService _fastPayload = null!;
    private IFileService _fastFiles = null!;
    private IHost _reflectionHost = null!;
    private IPayloadService _reflectionPayload = null!;
    private IFileService _reflectionFiles = null!;

    [GlobalSetup]
    public void Setup()
    {
        _directory = Directory.CreateTempSubdirectory("rpccompare-bench-").FullName;
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Services.AddRpcCompareServices(configure: o => o.Path = Path.Combine(_directory, "data"), only: s_services);
        builder.Services.AddPipesBinding(configure: o => o.Path = Path.Combine(_directory, "pipes.sock"));
        builder.Services.AddFastUdsBinding(configure: o => o.Path = Path.Combine(_directory, "fast.sock"));
        _host = builder.Build();
        _host.Start();
        var reflection = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        reflection.Logging.SetMinimumLevel(LogLevel.Warning);
        reflection.Services.AddRpcCompareServices(configure: o => o.Path = Path.Combine(_directory, "data"), only: s_services);
        reflection.Services.AddFastUdsBinding(configure: o =>
        {
            o.Path = Path.Combine(_directory, "fast-reflection.sock");
            o.GeneratedCode = false;
        });
        _reflectionHost = reflection.Build();
        _reflectionHost.Start();
        var factory = RpcClientFactory.CreateDefault();
        _pipesPayload = factory.Create<IPayloadService>(BindingNames.Pipes, Path.Combine(_directory, "pipes.sock"));
        _pipesFiles = factory.Create<IFileService>(BindingNames.Pipes, Path.Combine(_directory, "pipes.sock"));
        var fast = new FastClientProvider();
        _fastPayload = fast.Create<IPayloadService>(Path.Combine(_directory, "fast.sock"));
        _fastFiles = fast.Create<IFileService>(Path.Combine(_directory, "fast.sock"));
        var reflectionClients = new FastClientProvider(new FastClientOptions { GeneratedCode = false });
        _reflectionPayload = reflectionClients.Create<IPayloadService>(Path.Combine(_directory, "fast-reflection.sock"));
        _reflectionFiles = reflectionClients.Create<IFileService>(Path.Combine(_directory, "fast-reflection.sock"));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        RpcClientFactory.ReleaseAsync(_pipesPayload).AsTask().GetAwaiter().GetResult();
        RpcClientFactory.ReleaseAsync(_pipesFiles).AsTask().GetAwaiter().GetResult();
        _host.StopAsync().GetAwaiter().GetResult();
        _host.Dispose();
        _reflectionHost.StopAsync().GetAwaiter().GetResult();
        _reflectionHost.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    [Benchmark(Baseline = true, Description = "pipes, EchoBytes 12 B")]
    public Task<BytesMessage> PipesEcho() => _pipesPayload.EchoBytesAsync(_request);

    [Benchmark(Description = "fast-uds, EchoBytes 12 B")]
    public Task<BytesMessage> FastEcho() => _fastPayload.EchoBytesAsync(_request);

    [Benchmark(Description = "pipes, Ping")]
    public Task<PingReply> PipesPing() => _pipesFiles.PingAsync(_ping);

    [Benchmark(Description = "fast-uds, Ping")]
    public Task<PingReply> FastPing() => _fastFiles.PingAsync(_ping);

    [Benchmark(Description = "fast-uds reflection path, EchoBytes 12 B")]
    public Task<BytesMessage> ReflectionEcho() => _reflectionPayload.EchoBytesAsync(_request);

    [Benchmark(Description = "fast-uds reflection path, Ping")]
    public Task<PingReply> ReflectionPing() => _reflectionFiles.PingAsync(_ping);
}
