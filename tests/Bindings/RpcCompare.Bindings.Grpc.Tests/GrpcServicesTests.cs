using Grpc.Health.V1;
using Grpc.Net.Client;
using RpcCompare.Bindings.Grpc.Uds;
using RpcCompare.Contracts;
using RpcCompare.Testing;
using V1 = Grpc.Reflection.V1;
using V1Alpha = Grpc.Reflection.V1Alpha;

namespace RpcCompare.Bindings.Grpc.Tests;

/// <summary>
/// What a gRPC client of any language relies on besides the contracts, on both gRPC bindings:
/// server reflection (v1, which current tools ask for first, and v1alpha) lists exactly the
/// services served, health and itself; grpc.health.v1 reports every listed service SERVING and
/// nothing else.
/// </summary>
public sealed class GrpcServicesTests : IAsyncLifetime
{
    /// <summary>Everything the product's host serves over gRPC (push included: the host has a topic registry), in ordinal order.</summary>
    private static readonly string[] s_served =
    [
        "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
        ServiceNames.CallShapeService, ServiceNames.FileService, ServiceNames.FileTransferService, ServiceNames.PayloadService, ServiceNames.PushService,
    ];

    private InProcessHost _host = null!;

    public static TheoryData<string> GrpcBindings() => [BindingNames.GrpcTcp, BindingNames.GrpcUds];

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync();

    public async Task DisposeAsync() => await _host.DisposeAsync();

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task ReflectionV1_ListsExactlyTheServicesServed(string binding)
    {
        using var channel = Channel(binding);
        var reply = await AskV1Async(channel, new V1.ServerReflectionRequest { ListServices = "" });

        Assert.Equal(s_served, reply.ListServicesResponse.Service.Select(s => s.Name).Order(StringComparer.Ordinal));
    }

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task ReflectionV1Alpha_ListsTheSameServices(string binding)
    {
        using var channel = Channel(binding);
        var reflection = new V1Alpha.ServerReflection.ServerReflectionClient(channel);
        using var call = reflection.ServerReflectionInfo();

        await call.RequestStream.WriteAsync(new V1Alpha.ServerReflectionRequest { ListServices = "" }).Bounded();
        await call.RequestStream.CompleteAsync().Bounded();
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None).Bounded());

        Assert.Equal(s_served, call.ResponseStream.Current.ListServicesResponse.Service.Select(s => s.Name).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task ReflectionV1_DescribesTheContractsInOneProto3File_WithWriteAtOffsetOptional()
    {
        using var channel = Channel(BindingNames.GrpcTcp);
        var reply = await AskV1Async(channel, new V1.ServerReflectionRequest { FileContainingSymbol = ServiceNames.FileService });

        var files = reply.FileDescriptorResponse.FileDescriptorProto.Select(Google.Protobuf.Reflection.FileDescriptorProto.Parser.ParseFrom).ToList();
        var file = Assert.Single(files, f => f.Name == "rpccompare.v1.proto");
        Assert.Equal(("proto3", "rpccompare.v1"), (file.Syntax, file.Package));
        Assert.Equal(
            ["CallShapeService", "FileService", "FileTransferService", "PayloadService", "PushService"],
            file.Service.Select(s => s.Name).Order(StringComparer.Ordinal));
        var offset = file.MessageType.Single(m => m.Name == "WriteAtRequest").Field.Single(f => f.Name == "Offset");
        Assert.Equal((3, true), (offset.Number, offset.Proto3Optional));
        Assert.Contains("google/protobuf/empty.proto", file.Dependency);
    }

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task Health_ReportsEveryListedServiceServing(string binding)
    {
        using var channel = Channel(binding);
        var health = new Health.HealthClient(channel);

        foreach (var name in s_served.Append(""))
        {
            var reply = await health.CheckAsync(new HealthCheckRequest { Service = name }).ResponseAsync.Bounded();
            Assert.Equal((name, HealthCheckResponse.Types.ServingStatus.Serving), (name, reply.Status));
        }
    }

    [Fact]
    public async Task Health_ForAnUnknownService_IsNotFound()
    {
        using var channel = Channel(BindingNames.GrpcTcp);
        var health = new Health.HealthClient(channel);

        var error = await Assert.ThrowsAsync<global::Grpc.Core.RpcException>(() => health.CheckAsync(new HealthCheckRequest { Service = "rpccompare.v1.Nothing" }).ResponseAsync).Bounded();

        Assert.Equal(global::Grpc.Core.StatusCode.NotFound, error.StatusCode);
    }

    private GrpcChannel Channel(string binding) => binding == BindingNames.GrpcUds
        ? GrpcChannel.ForAddress("http://localhost", new GrpcChannelOptions { HttpHandler = new SocketsHttpHandler().ConnectingTo(_host.Address(binding)) })
        : GrpcChannel.ForAddress(_host.Address(binding));

    private static async Task<V1.ServerReflectionResponse> AskV1Async(GrpcChannel channel, V1.ServerReflectionRequest request)
    {
        var reflection = new V1.ServerReflection.ServerReflectionClient(channel);
        using var call = reflection.ServerReflectionInfo();
        await call.RequestStream.WriteAsync(request).Bounded();
        await call.RequestStream.CompleteAsync().Bounded();
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None).Bounded());
        var reply = call.ResponseStream.Current;
        Assert.True(reply.ErrorResponse is null, $"reflection refused {request}: {reply.ErrorResponse}");
        return reply;
    }
}
