using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>Past its configured limit every network binding refuses a message explicitly and goes on serving.</summary>
public sealed class QuotaTests
{
    public static TheoryData<string> NetworkBindings() => [.. RpcClientFactory.CreateDefault().Bindings.Where(b => b != BindingNames.InProc)];

    [Theory]
    [MemberData(nameof(NetworkBindings))]
    public async Task MessageOverTheDefaultLimit_IsRefusedWithQuotaExceeded_AndTheBindingKeepsServing(string binding)
    {
        await using var host = await InProcessHost.StartAsync();
        var factory = RpcClientFactory.CreateDefault();
        var payloads = factory.Create<IPayloadService>(binding, host.Binding(binding).Address!);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => payloads.SendBytesAsync(new BytesMessage { Data = new byte[20_000_000] })).Bounded();
        var after = await payloads.SendBytesAsync(new BytesMessage { Data = new byte[10_000_000] }).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Equal(10_000_000, after.Length);
        await RpcClientFactory.ReleaseAsync(payloads);
    }
}
