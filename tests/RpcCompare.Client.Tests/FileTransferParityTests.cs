using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Service;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// The streamed file service on every binding that carries it: the same bytes and the same
/// refusals as the in-process call. The pipes baseline does not carry it and says so.
/// </summary>
public sealed class FileTransferParityTests
{
    private static readonly string[] Carriers =
        [BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.WcfHttp, BindingNames.GrpcTcp, BindingNames.GrpcUds, BindingNames.FastTcp, BindingNames.FastUds, BindingNames.InProc];

    [Fact]
    public void EveryFrameworkBindingCarriesIt_ThePipesBaselineRefusesIt()
    {
        using var factory = RpcClientFactory.CreateDefault();

        Assert.Equal(Carriers.Order(), factory.Bindings.Where(b => factory.Check(b, typeof(IFileTransferService)).Count == 0).Order());
        Assert.Contains("pipes", factory.Check(BindingNames.Pipes, typeof(IFileTransferService))[0].ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task EveryCarrier_MovesTheSameBytes_AndRefusesAlike()
    {
        await using var host = await InProcessHost.StartAsync(bindings: Carriers);
        using var factory = RpcClientFactory.CreateDefault();
        var expected = await TranscriptAsync(factory, BindingNames.InProc, host.Address(BindingNames.InProc)).Bounded();
        Assert.Equal(
            "pattern 300007 True | count 500000 | upload 200001 uploads/ | download 200001 True | "
            + "NotFound: File 'missing.bin' does not exist under the data root. | PathRefused: Path '../x' refused: '..' segments are not accepted. | "
            + $"InvalidArgument: Length must be between 0 and {FileTransferService.MaxPatternLength}; got -1.",
            expected);
        foreach (var binding in Carriers.Where(b => b != BindingNames.InProc))
        {
            Assert.Equal((binding, expected), (binding, await TranscriptAsync(factory, binding, host.Address(binding)).Bounded()));
        }
    }

    // The fast bindings' streamed calls block their calling thread and return completed tasks: run on the
    // caller's thread, the whole transcript would finish before the caller's Bounded() is applied, and a
    // stall would hang the run instead of failing the test after its bound.
    internal static Task<string> TranscriptAsync(RpcClientFactory factory, string binding, string address) =>
        Task.Run(() => TranscriptOnThisThreadAsync(factory, binding, address));

    private static async Task<string> TranscriptOnThisThreadAsync(RpcClientFactory factory, string binding, string address)
    {
        var files = factory.Create<IFileTransferService>(binding, address);
        try
        {
            var pattern = await ReadAllAsync(await files.ReadPatternAsync(new PatternRequest { Length = 300_007 }));
            var count = await files.CountAsync(new PatternStream(500_000));
            var sent = Enumerable.Range(0, 200_001).Select(i => (byte)(i * 5)).ToArray();
            var upload = await files.UploadAsync(new MemoryStream(sent));
            var back = await ReadAllAsync(await files.DownloadAsync(new DownloadRequest { Path = upload.Path }));
            return $"pattern {pattern.Length} {pattern.Select((b, i) => b == PatternStream.At(i)).All(same => same)} | count {count.Length} | "
                + $"upload {upload.Length} {upload.Path[..(upload.Path.IndexOf('/') + 1)]} | download {back.Length} {back.AsSpan().SequenceEqual(sent)} | "
                + $"{await ErrorAsync(async () => await files.DownloadAsync(new DownloadRequest { Path = "missing.bin" }))} | "
                + $"{await ErrorAsync(async () => await files.DownloadAsync(new DownloadRequest { Path = "../x" }))} | "
                + $"{await ErrorAsync(async () => await files.ReadPatternAsync(new PatternRequest { Length = -1 }))}";
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(files);
        }
    }

    private static async Task<string> ErrorAsync(Func<Task> call)
    {
        try
        {
            await call();
            return "no error";
        }
        catch (RpcServiceException e)
        {
            return $"{e.Code}: {e.Message}";
        }
    }

    private static async Task<byte[]> ReadAllAsync(Stream stream)
    {
        await using (stream)
        {
            using var copy = new MemoryStream();
            await stream.CopyToAsync(copy);
            return copy.ToArray();
        }
    }
}
