namespace RpcCompare.Container.Tests;

/// <summary>
/// Builds the host, runner and Node.js client images, and the fleet's (HAProxy, Redis, Prometheus), once per test run with docker/offline.sh
/// (the same Dockerfiles as with the standard images; local base images are reused when present).
/// One collection: the container tests run one after another, as two cores need.
/// </summary>
public sealed class ContainerImages : IAsyncLifetime
{
    public const string Collection = "container images";

    private readonly Dictionary<string, (int ExitCode, string Output)> _builds = new(StringComparer.Ordinal);

    public async Task InitializeAsync()
    {
        foreach (var target in new[] { "host", "runner", "node-client", "fleet" })
        {
            _builds[target] = await Podman.BuildImageAsync(target);
        }
    }

    public Task DisposeAsync() => Task.CompletedTask;

    public void AssertBuilt(string target)
    {
        var (exitCode, output) = _builds[target];
        Assert.True(exitCode == 0, $"docker/offline.sh build {target} failed ({exitCode}):\n{output}");
    }
}

[CollectionDefinition(ContainerImages.Collection)]
public sealed class ContainerImagesDefinition : ICollectionFixture<ContainerImages>;
