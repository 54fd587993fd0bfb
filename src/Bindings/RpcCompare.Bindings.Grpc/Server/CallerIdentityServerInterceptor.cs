using Grpc.Core;
using Grpc.Core.Interceptors;
using Microsoft.AspNetCore.Connections.Features;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Grpc.Server;

/// <summary>
/// Gives each call its caller (<see cref="CallerIdentity.Current"/>): Kestrel runs every HTTP/2
/// stream on a flow of its own, so the identity the connection's middleware read
/// (<see cref="ConnectionCaller"/>) is taken from the connection's items per call, and a caller
/// the host does not serve is refused. Not async: the
/// value set here flows into the continuation, and no state machine is allocated per call.
/// </summary>
internal sealed class CallerIdentityServerInterceptor : Interceptor
{
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        Enter(context);
        return continuation(request, context);
    }

    public override Task ServerStreamingServerHandler<TRequest, TResponse>(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        Enter(context);
        return continuation(request, responseStream, context);
    }

    public override Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context, ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        Enter(context);
        return continuation(requestStream, context);
    }

    public override Task DuplexStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, DuplexStreamingServerMethod<TRequest, TResponse> continuation)
    {
        Enter(context);
        return continuation(requestStream, responseStream, context);
    }

    // A caller the host does not serve gets PermissionDenied saying why (RpcErrorServerInterceptor,
    // outside this one, turns the refusal into a status), and its connection is asked to close
    // (GOAWAY) once the answer is out.
    private static void Enter(ServerCallContext context)
    {
        var features = context.GetHttpContext().Features;
        if (ConnectionCaller.RefusalOf(features) is { } refusal)
        {
            features.Get<IConnectionLifetimeNotificationFeature>()?.RequestClose();
            throw new RpcServiceException(RpcErrorCode.PermissionDenied, refusal);
        }

        CallerIdentity.Current = ConnectionCaller.Of(features);
    }
}
