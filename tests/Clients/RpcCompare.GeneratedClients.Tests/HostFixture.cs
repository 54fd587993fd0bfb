using System.Text.Json.Nodes;
using RpcCompare.Testing;

namespace RpcCompare.GeneratedClients.Tests;

/// <summary>One in-process host with every binding, shared by all generated-client tests.</summary>
public sealed class HostFixture : IAsyncLifetime
{
    private InProcessHost? _host;

    public InProcessHost Host => _host ?? throw new InvalidOperationException("The host has not started.");

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync();

    public async Task DisposeAsync()
    {
        if (_host is not null)
        {
            await _host.DisposeAsync();
        }
    }

    /// <summary>Runs <paramref name="call"/> through rpcc's client and through <paramref name="generated"/> and requires the same outcome.</summary>
    public async Task AssertSameAsRpccAsync(string binding, IParityClient generated, ParityCall call)
    {
        await using var rpcc = new RpccClient(binding, Host.Address(binding));
        var expected = await ParityCalls.RunReferenceAsync(rpcc, call).Bounded();
        var actual = await ParityCalls.RunAsync(generated, call).Bounded();
        Assert.True(JsonNode.DeepEquals(expected, actual), $"{call.Name} over {binding}: rpcc's client got {expected.ToJsonString()}, the generated client got {actual.ToJsonString()}.");
    }

    public static TheoryData<string, string> Cases(params string[] bindings)
    {
        var data = new TheoryData<string, string>();
        foreach (var binding in bindings)
        {
            foreach (var call in ParityCalls.All)
            {
                data.Add(binding, call.Name);
            }
        }

        return data;
    }

    public static ParityCall Call(string name) => ParityCalls.All.Single(c => c.Name == name);
}

[CollectionDefinition(Name)]
public sealed class SharedHost : ICollectionFixture<HostFixture>
{
    public const string Name = "generated clients against one host";
}
