using Grpc.Core;
using Grpc.Core.Interceptors;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Grpc.Server;

/// <summary>Turns a refusal the service threw into a gRPC status with the code in a trailer (<see cref="GrpcErrors"/>).</summary>
internal sealed class RpcErrorServerInterceptor : Interceptor
{
    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            return await continuation(request, context);
        }
        catch (RpcServiceException exception)
        {
            throw GrpcErrors.ToRpcException(exception);
        }
    }

    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            await continuation(request, responseStream, context);
        }
        catch (RpcServiceException exception)
        {
            throw GrpcErrors.ToRpcException(exception);
        }
    }

    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context, ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            return await continuation(requestStream, context);
        }
        catch (RpcServiceException exception)
        {
            throw GrpcErrors.ToRpcException(exception);
        }
    }

    public override async Task DuplexStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, DuplexStreamingServerMethod<TRequest, TResponse> continuation)
    {
        try
        {
            await continuation(requestStream, responseStream, context);
        }
        catch (RpcServiceException exception)
        {
            throw GrpcErrors.ToRpcException(exception);
        }
    }
}
