using Grpc.Core;
using Grpc.Core.Interceptors;

namespace RpcCompare.Bindings.Grpc.Client;

/// <summary>Turns a gRPC status back into the <see cref="Contracts.RpcServiceException"/> the service threw (<see cref="GrpcErrors"/>).</summary>
internal sealed class RpcErrorClientInterceptor : Interceptor
{
    private readonly int _clientLimit;

    public RpcErrorClientInterceptor(int clientLimit)
    {
        _clientLimit = clientLimit;
    }

    public override AsyncUnaryCall<TResponse> AsyncUnaryCall<TRequest, TResponse>(TRequest request, ClientInterceptorContext<TRequest, TResponse> context, AsyncUnaryCallContinuation<TRequest, TResponse> continuation)
    {
        var call = continuation(request, context);
        return new AsyncUnaryCall<TResponse>(MapErrorsAsync(call.ResponseAsync), call.ResponseHeadersAsync, call.GetStatus, call.GetTrailers, call.Dispose);
    }

    private async Task<TResponse> MapErrorsAsync<TResponse>(Task<TResponse> response)
    {
        try
        {
            return await response.ConfigureAwait(false);
        }
        catch (RpcException exception) when (GrpcErrors.FromRpcException(exception, _clientLimit) is var mapped && !ReferenceEquals(mapped, exception))
        {
            throw mapped;
        }
    }
}
