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
    public static TheoryData<string> NetworkBindings() => [.. RpcClientFactory.CreateDefault().Bindings.Where(b => b != BindingNames.InProc)];

    [Theory]
    [MemberData(nameof(NetworkBindings))]
    public async Task MessageOverTheServersDefaultLimit_IsRefusedByTheServer_AndTheBindingKeepsServing(string binding)
    {
        await using var host = await InProcessHost.StartAsync();
        var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { MaxMessageSize = 64 * 1024 * 1024 });
        var payloads = factory.Create<IPayloadService>(binding, host.Binding(binding).Address!);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => payloads.SendBytesAsync(new BytesMessage { Data = new byte[20_000_000] })).Bounded();
        var after = await payloads.SendBytesAsync(new BytesMessage { Data = new byte[10_000_000] }).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("server's limit", error.Message, StringComparison.Ordinal);
        Assert.Equal(10_000_000, after.Length);
        await RpcClientFactory.ReleaseAsync(payloads);
    }

    [Theory]
    [MemberData(nameof(NetworkBindings))]
    public async Task MessageOverTheClientsLimit_IsRefusedByTheClient(string binding)
    {
        // The client's limit is below the server's, so the refusal is the client's own: before
        // sending where the framework checks outgoing messages (pipes, gRPC), on the reply where
        // it checks only incoming ones (WCF).
        await using var host = await InProcessHost.StartAsync();
        var payloads = RpcClientFactory.CreateDefault(new RpcClientOptions { MaxMessageSize = 1_000_000 }).Create<IPayloadService>(binding, host.Binding(binding).Address!);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => payloads.EchoBytesAsync(new BytesMessage { Data = new byte[2_000_000] })).Bounded();
        var after = await payloads.EchoBytesAsync(new BytesMessage { Data = new byte[100_000] }).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("client's limit", error.Message, StringComparison.Ordinal);
        Assert.Equal(100_000, after.Data.Length);
        await RpcClientFactory.ReleaseAsync(payloads);
    }
}
