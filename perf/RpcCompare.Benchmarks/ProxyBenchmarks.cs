using BenchmarkDotNet.Attributes;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Service;

namespace RpcCompare.Benchmarks;

/// <summary>
/// The client proxy layer of each binding without the other process: a direct call on the
/// implementation (baseline), the same call through the factory's inproc proxy, and the pipes
/// proxy's encode and decode of a call with the transport left out.
/// </summary>
[MemoryDiagnoser]
public class ProxyBenchmarks
{
    private readonly IntMessage _request = new() { Value = 41 };
    private DataRoot _root = null!;
    private CallShapeService _direct = null!;
    private ICallShapeService _inproc = null!;
    private FrameBuffer _frame = null!;

    [GlobalSetup]
    public void Setup()
    {
        _root = DataRoot.Open(new DataRootOptions { SeedFileSize = 1024, SeedDirectoryEntries = 1 });
        _direct = new CallShapeService();
        _inproc = RpcClientFactory.CreateDefault().Create<ICallShapeService>(BindingNames.InProc, _root.FullPath);
        _frame = new();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _frame.Dispose();
        _root.Dispose();
    }

    [Benchmark(Baseline = true)]
    public Task<IntMessage> Direct() => _direct.IncrementAsync(_request);

    [Benchmark]
    public Task<IntMessage> InProcProxy() => _inproc.IncrementAsync(_request);

    [Benchmark]
    public IntMessage PipesProxyEncodeDecode()
    {
        _frame.Reset();
        MessageCodec.WriteIntMessage(_frame, _request);
        return MessageCodec.Decode(_frame.Complete(0x13).Span[PipeFrame.HeaderSize..], MessageCodec.ReadIntMessage);
    }
}
