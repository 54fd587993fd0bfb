using Grpc.Core;
using Grpc.Core.Interceptors;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Grpc.Server;

/// <summary>
/// Gives each call its caller (<see cref="CallerIdentity.Current"/>): Kestrel runs every HTTP/2
/// stream on a flow of its own, so the identity the connection's middleware read
/// (<see cref="ConnectionCaller"/>) is taken from the connection's items per call. (A caller the
/// host does not serve never gets this far: <see cref="GrpcBindingServer"/> answers it before its
/// request is read.) Not async: the
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

    private static void Enter(ServerCallContext context) => CallerIdentity.Current = ConnectionCaller.Of(context.GetHttpContext().Features);
}
