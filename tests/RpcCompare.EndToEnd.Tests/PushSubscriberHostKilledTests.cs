using System.Diagnostics;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Push;
using RpcCompare.Client;
using RpcCompare.Testing;
using Xunit.Abstractions;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>A push subscriber whose host is killed with SIGKILL learns that its subscription ended, on every push binding the host serves over a connection.</summary>
public sealed class PushSubscriberHostKilledTests(ITestOutputHelper output)
{
    public static TheoryData<string> Bindings() => [BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.FastTcp, BindingNames.GrpcTcp, BindingNames.Pipes, BindingNames.WcfHttp];

    [Theory]
    [MemberData(nameof(Bindings))]
    public async Task WhenTheHostIsKilled_TheSubscriptionEnds(string binding)
    {
        using var directory = new TemporaryDirectory();
        await using var host = HostProcess.Start("--bindings", binding, "--endpoints-file", directory.PathFor("e.json"), "--socket-dir", directory.PathFor("s"));
        var endpoints = await host.WaitForEndpointsAsync(directory.PathFor("e.json"));
        using var factory = RpcClientFactory.CreateDefault();
        await using var client = factory.CreatePushClient(binding, endpoints[binding]);
        var subscription = await client.SubscribeAsync("room", _ => { }).Bounded();

        await host.KillAsync();
        var clock = Stopwatch.StartNew();
        var ended = await Record.ExceptionAsync(() => subscription.Completion.WaitAsync(TestTimeout.Default));

        Assert.True(ended is not null and not TimeoutException, $"{binding}: the subscription {(ended is null ? "completed as if left" : "was still open")} {clock.Elapsed.TotalSeconds:0} s after its host was killed");
        Assert.IsType<PushSubscriptionEndedException>(ended);
        output.WriteLine($"{binding}: ended {clock.Elapsed.TotalSeconds:0.00} s after the kill: {ended.Message}");
    }
}
