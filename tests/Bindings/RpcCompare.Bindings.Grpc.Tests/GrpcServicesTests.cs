using Grpc.Health.V1;
using Grpc.Net.Client;
using Grpc.Reflection.V1Alpha;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Grpc.Tests;

/// <summary>
/// What a gRPC client of any language relies on besides the contracts: server reflection lists
/// every service by its dotted name, and grpc.health.v1 reports each of them SERVING.
/// </summary>
public sealed class GrpcServicesTests : IAsyncLifetime
{
    private static readonly string[] s_services = [ServiceNames.FileService, ServiceNames.CallShapeService, ServiceNames.PayloadService];
    private InProcessHost _host = null!;
    private GrpcChannel _channel = null!;

    public async Task InitializeAsync()
    {
        _host = await InProcessHost.StartAsync();
        _channel = GrpcChannel.ForAddress(_host.Address(BindingNames.GrpcTcp));
    }

    public async Task DisposeAsync()
    {
        _channel.Dispose();
        await _host.DisposeAsync();
    }

    [Fact]
    public async Task Reflection_ListsEveryService()
    {
        var reflection = new ServerReflection.ServerReflectionClient(_channel);
        using var call = reflection.ServerReflectionInfo();

        await call.RequestStream.WriteAsync(new ServerReflectionRequest { ListServices = "" }).Bounded();
        await call.RequestStream.CompleteAsync().Bounded();
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None).Bounded());
        var listed = call.ResponseStream.Current.ListServicesResponse.Service.Select(s => s.Name).ToList();

        Assert.All(s_services, name => Assert.Contains(name, listed));
    }

    [Fact]
    public async Task Health_ReportsEveryServiceServing()
    {
        var health = new Health.HealthClient(_channel);

        foreach (var name in s_services)
        {
            var reply = await health.CheckAsync(new HealthCheckRequest { Service = name }).ResponseAsync.Bounded();
            Assert.Equal((name, HealthCheckResponse.Types.ServingStatus.Serving), (name, reply.Status));
        }
    }

    [Fact]
    public async Task Health_ForAnUnknownService_IsNotFound()
    {
        var health = new Health.HealthClient(_channel);

        var error = await Assert.ThrowsAsync<global::Grpc.Core.RpcException>(() => health.CheckAsync(new HealthCheckRequest { Service = "rpccompare.v1.Nothing" }).ResponseAsync).Bounded();

        Assert.Equal(global::Grpc.Core.StatusCode.NotFound, error.StatusCode);
    }
}
