using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// Past its configured limit every network binding refuses a message explicitly and goes on
/// serving: the server's limit (with a client whose own limit is higher, so the request is really
/// sent) and the client's limit (refused before sending).
/// </summary>
public sealed class QuotaTests
{
    /// <summary>
    /// The WCF framing bindings' server refusal does not reach the WCF client as such: CoreWCF sends
    /// its MaxMessageSizeExceeded fault after reading 64 KiB, while the client is still writing, and
    /// the client reports a generic CommunicationException ("the server did not provide a meaningful reply",
    /// or the channel is faulted). <see cref="FramingBindings"/> pins that down.
    /// </summary>
    private static readonly string[] s_framing = [BindingNames.WcfNetTcp, BindingNames.WcfUds];

    private static IEnumerable<string> Network => RpcClientFactory.CreateDefault().Bindings.Where(b => b != BindingNames.InProc);

    public static TheoryData<string> NetworkBindings() => [.. Network];

    public static TheoryData<string> BindingsThatReportTheServersRefusal() => [.. Network.Except(s_framing)];

    public static TheoryData<string> FramingBindings() => [.. s_framing];

    [Theory]
    [MemberData(nameof(BindingsThatReportTheServersRefusal))]
    public async Task MessageOverTheServersLimit_IsRefusedByTheServer_AndTheBindingKeepsServing(string binding)
    {
        await using var host = await InProcessHost.StartAsync();
        var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { MaxMessageSize = 64 * 1024 * 1024 });
        var payloads = factory.Create<IPayloadService>(binding, host.Address(binding));

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => payloads.SendBytesAsync(new BytesMessage { Data = new byte[20_000_000] })).Bounded();
        var after = await SendTenMegabytesAsync(factory, binding, host);

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("server's limit", error.Message, StringComparison.Ordinal);
        Assert.Equal(10_000_000, after);
        await RpcClientFactory.ReleaseAsync(payloads);
    }

    [Theory]
    [MemberData(nameof(FramingBindings))]
    public async Task WcfFraming_MessageOverTheServersLimit_FailsAsACommunicationError_AndTheBindingKeepsServing(string binding)
    {
        await using var host = await InProcessHost.StartAsync();
        var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { MaxMessageSize = 64 * 1024 * 1024 });
        var payloads = factory.Create<IPayloadService>(binding, host.Address(binding));

        var error = await Assert.ThrowsAnyAsync<System.ServiceModel.CommunicationException>(() => payloads.SendBytesAsync(new BytesMessage { Data = new byte[20_000_000] })).Bounded();
        var after = await SendTenMegabytesAsync(factory, binding, host);

        Assert.IsNotType<System.ServiceModel.FaultException>(error, exactMatch: false);
        Assert.Equal(10_000_000, after);
        await RpcClientFactory.ReleaseAsync(payloads);
    }

    [Theory]
    [MemberData(nameof(NetworkBindings))]
    public async Task MessageOverTheClientsLimit_IsRefusedByTheClient_AndTheProxyKeepsWorking(string binding)
    {
        // The client's limit is below the server's, so a refusal can only be the client's own:
        // before sending where the client checks outgoing sizes (pipes, gRPC, the WCF framing
        // bindings), on the echoed reply where it checks only incoming ones (wcf-http).
        await using var host = await InProcessHost.StartAsync();
        var payloads = RpcClientFactory.CreateDefault(new RpcClientOptions { MaxMessageSize = 1_000_000 }).Create<IPayloadService>(binding, host.Address(binding));

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => payloads.EchoBytesAsync(new BytesMessage { Data = new byte[2_000_000] })).Bounded();
        var after = await payloads.EchoBytesAsync(new BytesMessage { Data = new byte[100_000] }).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("client's limit", error.Message, StringComparison.Ordinal);
        Assert.Equal(100_000, after.Data.Length);
        await RpcClientFactory.ReleaseAsync(payloads);
    }

    [Theory]
    [MemberData(nameof(BindingsThatReportTheServersRefusal))]
    public async Task ReplyOverTheClientsLimit_IsRefusedByTheClient_AndTheProxyKeepsWorking(string binding)
    {
        // A small request whose reply, a listing of 20,000 entries, is over the client's limit.
        await using var host = await InProcessHost.StartAsync();
        using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { MaxMessageSize = 500_000 });
        var files = factory.Create<IFileService>(binding, host.Address(binding));
        CreateLargeDirectory(host);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "large" })).Bounded();
        var after = await files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "files" }).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("client's limit", error.Message, StringComparison.Ordinal);
        Assert.Equal(100, after.Entries.Length);
        await RpcClientFactory.ReleaseAsync(files);
    }

    [Theory]
    [MemberData(nameof(FramingBindings))]
    public async Task WcfFraming_ReplyOverTheClientsLimit_FailsAsACommunicationError_AndTheProxyKeepsWorking(string binding)
    {
        await using var host = await InProcessHost.StartAsync();
        using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { MaxMessageSize = 500_000 });
        var files = factory.Create<IFileService>(binding, host.Address(binding));
        CreateLargeDirectory(host);

        var error = await Assert.ThrowsAnyAsync<System.ServiceModel.CommunicationException>(() => files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "large" })).Bounded();
        var after = await files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "files" }).Bounded();

        Assert.IsNotType<System.ServiceModel.FaultException>(error, exactMatch: false);
        Assert.Equal(100, after.Entries.Length);
        await RpcClientFactory.ReleaseAsync(files);
    }

    private static void CreateLargeDirectory(InProcessHost host)
    {
        var directory = Directory.CreateDirectory(Path.Combine(host.DataRoot, "large"));
        for (var i = 0; i < 20_000; i++)
        {
            File.WriteAllBytes(Path.Combine(directory.FullName, $"an-entry-with-a-fairly-long-name-{i:D6}"), []);
        }
    }

    /// <summary>Another client of the same binding, after the refusal: the server still serves full-size messages.</summary>
    private static async Task<long> SendTenMegabytesAsync(RpcClientFactory factory, string binding, InProcessHost host)
    {
        var other = factory.Create<IPayloadService>(binding, host.Address(binding));
        try
        {
            return (await other.SendBytesAsync(new BytesMessage { Data = new byte[10_000_000] }).Bounded()).Length;
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(other);
        }
    }
}
