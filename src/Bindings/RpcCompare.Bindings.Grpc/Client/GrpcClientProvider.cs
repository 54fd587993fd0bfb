using System.Collections.Concurrent;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Health.V1;
using Grpc.Net.Client;
using ProtoBuf.Grpc.Client;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Grpc.Push;
using RpcCompare.Bindings.Push;

namespace RpcCompare.Bindings.Grpc.Client;

/// <summary>
/// The client side of a gRPC binding: one GrpcChannel per address, shared by every proxy of
/// every contract on it (channels are meant to be long-lived and multiplex calls), and a
/// <see cref="ContractProxy"/> per Create, built from the contract's map like the server's methods.
/// </summary>
public abstract class GrpcClientProvider : IBindingClientProvider, IBindingHealthProbe, IPushClientProvider, IDisposable
{
    // ServiceModel.Grpc's factory emits one proxy type per contract: one factory per process.
    private static readonly ServiceModel.Grpc.Client.ClientFactory s_serviceModelClients = new(new ServiceModel.Grpc.Client.ServiceModelGrpcClientOptions
    {
        MarshallerFactory = new ServiceModel.Grpc.Configuration.ProtobufMarshallerFactory(),
    });

    private readonly ConcurrentDictionary<string, Lazy<(GrpcChannel Channel, CallInvoker Invoker)>> _channels = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, SharedPushChannel> _sharedPushChannels = new(StringComparer.Ordinal);

    protected GrpcClientProvider(GrpcClientOptions? options)
    {
        Options = options ?? new GrpcClientOptions();
    }

    public abstract string Name { get; }

    protected GrpcClientOptions Options { get; }

    /// <summary>What this binding carries (the server applies the same rules).</summary>
    public IReadOnlyList<CarryRefusal> Check(Type contract) => GrpcCarryRules.For(Options.Engine).Check(Name, contract);

    public TContract Create<TContract>(string address)
        where TContract : class
    {
        if (Check(typeof(TContract)) is { Count: > 0 } refusals)
        {
            throw new ContractNotCarriedException(refusals);
        }

        return Options.Engine switch
        {
            GrpcEngine.ProtobufNetGrpc => Invoker(address).CreateGrpcService<TContract>(),
            GrpcEngine.ServiceModelGrpc => s_serviceModelClients.CreateClient<TContract>(Invoker(address)),
            _ => ContractProxy.Create<TContract>(Invoker(address)),
        };
    }

    /// <summary>grpc.health.v1.Health/Check over the same channel the contract proxies use.</summary>
    public async Task<string> CheckHealthAsync(string address, string service, CancellationToken cancellationToken = default)
    {
        var reply = await new Health.HealthClient(Invoker(address)).CheckAsync(new HealthCheckRequest { Service = service }, cancellationToken: cancellationToken);
        // The name the .proto gives the value (SERVICE_UNKNOWN), as grpc_health_probe prints it.
        return HealthCheckResponse.Descriptor.FindFieldByName("status").EnumType.FindValueByNumber((int)reply.Status).Name;
    }

    /// <summary>
    /// "stream": a push client with a GrpcChannel (so a connection) of its own, unlike the contract
    /// proxies, which share one per address; "multiplexed": every push client of the address on
    /// one shared connection (<see cref="GrpcPushVariants.Multiplexed"/>).
    /// </summary>
    public IReadOnlyList<string> PushVariants => GrpcPushVariants.Variants;

    public IPushClient CreatePushClient(string address, string? variant = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(address);
        PushVariant.ThrowUnlessOffered(variant, PushVariants, Name);
        if (variant == GrpcPushVariants.Multiplexed)
        {
            // One connection, so calls past the server's stream limit queue instead of opening another.
            var shared = _sharedPushChannels.GetOrAdd(address, a => new SharedPushChannel(() => CreateChannel(a, multipleConnections: false)));
            return new GrpcPushClient(shared.Acquire(), Options.MaxMessageSize, shared.Release);
        }

        var channel = CreateChannel(address);
        return new GrpcPushClient(channel, Options.MaxMessageSize, channel.Dispose);
    }

    public void Dispose()
    {
        foreach (var channel in _channels.Values.Where(c => c.IsValueCreated))
        {
            channel.Value.Channel.Dispose();
        }

        _channels.Clear();
        GC.SuppressFinalize(this);
    }

    /// <summary>The URI the channel is created for.</summary>
    protected abstract Uri ChannelAddress(string address);

    private CallInvoker Invoker(string address)
    {
        ArgumentException.ThrowIfNullOrEmpty(address);
        return _channels.GetOrAdd(address, a => new Lazy<(GrpcChannel, CallInvoker)>(() =>
        {
            var channel = CreateChannel(a);
            return (channel, channel.Intercept(new RpcErrorClientInterceptor(Options.MaxMessageSize)));
        })).Value.Invoker;
    }

    private GrpcChannel CreateChannel(string address, bool? multipleConnections = null) => GrpcChannel.ForAddress(ChannelAddress(address), new GrpcChannelOptions
    {
        HttpHandler = ConfigureConnections(CreateHandler(address), multipleConnections ?? Options.EnableMultipleHttp2Connections),
        DisposeHttpClient = true,
        MaxReceiveMessageSize = Options.MaxMessageSize,
        MaxSendMessageSize = Options.MaxMessageSize,
    });

    /// <summary>The HTTP handler under the channel; the UDS binding dials its socket here.</summary>
    protected virtual SocketsHttpHandler CreateHandler(string address) => new()
    {
        PooledConnectionIdleTimeout = Timeout.InfiniteTimeSpan,
        ConnectTimeout = Options.ConnectTimeout,
        SslOptions = { RemoteCertificateValidationCallback = Options.Tls?.ValidationCallback, ClientCertificates = Options.Tls?.ClientCertificates },
    };

    // See GrpcClientOptions.EnableMultipleHttp2Connections: on by default, as grpc-dotnet's
    // performance guidance advises (a lone client still uses one connection); off for the
    // multiplexed push channel, whose point is one connection.
    private static SocketsHttpHandler ConfigureConnections(SocketsHttpHandler handler, bool multipleConnections)
    {
        handler.EnableMultipleHttp2Connections = multipleConnections;
        return handler;
    }
}
