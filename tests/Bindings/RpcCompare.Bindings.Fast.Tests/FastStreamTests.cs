using Microsoft.Extensions.DependencyInjection;
using System.ServiceModel;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.ContractCorpus;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>WCF's streamed transfer over fast-uds: a Stream in as the whole request, out as the whole reply, in 64 KiB chunks.</summary>
public sealed class FastStreamTests
{
    [Fact]
    public async Task StreamsGoBothWays_OfAnyLength_IncludingNone()
    {
        await using var server = await TestFastServer.StartAsync(register: s => s.AddRpcService<IStreamedFiles, StreamedFiles>());
        var files = server.Client<IStreamedFiles>();
        // More than three chunks and not a whole number of them.
        var sent = Enumerable.Range(0, 200_003).Select(i => (byte)(i * 7)).ToArray();

        files.Upload(new MemoryStream(sent));
        var latest = await ReadAllAsync(await files.DownloadLatestAsync());
        files.Upload(new MemoryStream());
        var empty = await ReadAllAsync(await files.DownloadLatestAsync());

        Assert.Equal(sent, latest);
        Assert.Empty(empty);
        Assert.Equal("hello, streamed world", System.Text.Encoding.UTF8.GetString(await ReadAllAsync(files.Download("hello.txt"))));
    }

    [Fact]
    public async Task AStream_IsNotBoundByTheMessageSizeLimit()
    {
        await using var server = await TestFastServer.StartAsync(o => o.MaxMessageSize = 100_000, s => s.AddRpcService<IStreamedFiles, StreamedFiles>());
        var files = server.Client<IStreamedFiles>(new FastClientOptions { MaxMessageSize = 100_000 });
        var sent = Enumerable.Range(0, 3_000_000).Select(i => (byte)(i % 251)).ToArray();

        files.Upload(new MemoryStream(sent));

        Assert.Equal(sent, await ReadAllAsync(await files.DownloadLatestAsync()));
    }

    [Fact]
    public async Task AFaultInsteadOfAStream_ReachesTheCaller_AndTheConnectionServesOn()
    {
        await using var server = await TestFastServer.StartAsync(register: s => s.AddRpcService<IStreamedFiles, StreamedFiles>());
        var files = server.Client<IStreamedFiles>();

        var fault = Assert.Throws<FaultException>(() => files.Download("missing.txt"));

        Assert.Equal("No file 'missing.txt'.", fault.Reason.ToString());
        Assert.Equal(21, (await ReadAllAsync(files.Download("hello.txt"))).Length);
        Assert.Equal(1, server.Server.OpenConnections);
    }

    [Fact]
    public async Task AReplyStreamDisposedBeforeItsEnd_TakesItsConnection_AndTheNextCallWorks()
    {
        await using var server = await TestFastServer.StartAsync(register: s => s.AddRpcService<IStreamedFiles, StreamedFiles>());
        var files = server.Client<IStreamedFiles>();
        files.Upload(new MemoryStream(new byte[500_000]));

        await using (var partly = await files.DownloadLatestAsync())
        {
            Assert.Equal(100, partly.Read(new byte[100], 0, 100));
        }

        Assert.Equal(500_000, (await ReadAllAsync(await files.DownloadLatestAsync())).Length);
        await Eventually.HoldsAsync(() => server.Server.OpenConnections == 1, TimeSpan.FromSeconds(10), () => $"{server.Server.OpenConnections} connections open");
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
