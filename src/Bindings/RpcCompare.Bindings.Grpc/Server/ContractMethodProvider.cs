using Grpc.AspNetCore.Server.Model;
using RpcCompare.Bindings.Grpc.Mapping;

namespace RpcCompare.Bindings.Grpc.Server;

/// <summary>
/// Grpc.AspNetCore's own extension point for a service's methods, fed from the contract's
/// <see cref="GrpcContractMap"/>: every carried operation becomes a method of the contract's
/// service, routed, listed and called like any generated service's.
/// </summary>
internal sealed class ContractMethodProvider<TContract> : IServiceMethodProvider<ContractEndpoint<TContract>>
    where TContract : class
{
    public void OnServiceMethodDiscovery(ServiceMethodProviderContext<ContractEndpoint<TContract>> context)
    {
        foreach (var operation in GrpcContractMap.For(typeof(TContract)).Operations)
        {
            var server = (IServerOperation<TContract>)Activator.CreateInstance(
                typeof(ServerOperation<,,>).MakeGenericType(typeof(TContract), operation.Request.Type, operation.Reply.Type), operation)!;
            server.AddTo(context);
        }
    }
}
