using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.ExceptionServices;
using Grpc.Core;
using Grpc.Core.Interceptors;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Grpc.Server;

/// <summary>
/// Outermost of the binding's interceptors: turns a refusal the service threw into a gRPC status with
/// the code in a trailer (<see cref="GrpcErrors"/>), and gives the call its server span and duration
/// (<see cref="RpcServerTelemetry"/>), which sees the service's own exception before it becomes a
/// status, as on every binding. One instance per binding (a DI singleton, so grpc-dotnet does not
/// make one per call); already an async method per call, so telemetry adds only its check while
/// nothing listens.
/// </summary>
internal sealed class RpcErrorServerInterceptor(string binding) : Interceptor
{
    // "/rpccompare.v1.FileService/Ping" -> its ServedMethod, named once per method.
    private readonly ConcurrentDictionary<string, ServedMethod> _methods = new(StringComparer.Ordinal);

    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        var telemetry = Start(context);
        try
        {
            var response = await continuation(request, context);
            telemetry.End();
            return response;
        }
        catch (Exception e)
        {
            throw Failed(telemetry, e);
        }
    }

    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        var telemetry = Start(context);
        try
        {
            await continuation(request, responseStream, context);
            telemetry.End();
        }
        catch (Exception e)
        {
            throw Failed(telemetry, e);
        }
    }

    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context, ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        var telemetry = Start(context);
        try
        {
            var response = await continuation(requestStream, context);
            telemetry.End();
            return response;
        }
        catch (Exception e)
        {
            throw Failed(telemetry, e);
        }
    }

    public override async Task DuplexStreamingServerHandler<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, DuplexStreamingServerMethod<TRequest, TResponse> continuation)
    {
        var telemetry = Start(context);
        try
        {
            await continuation(requestStream, responseStream, context);
            telemetry.End();
        }
        catch (Exception e)
        {
            throw Failed(telemetry, e);
        }
    }

    // What a failed call throws: a refusal as its status, anything else as it was (rethrown here with its own stack trace).
    private static RpcException Failed(ServerCall telemetry, Exception e)
    {
        telemetry.End(e);
        if (e is RpcServiceException refusal)
        {
            return GrpcErrors.ToRpcException(refusal);
        }

        ExceptionDispatchInfo.Throw(e);
        throw new UnreachableException();
    }

    private ServerCall Start(ServerCallContext context)
    {
        if (!RpcServerTelemetry.IsEnabled)
        {
            return default;
        }

        var method = _methods.GetOrAdd(context.Method, static (path, binding) =>
        {
            var slash = path.LastIndexOf('/');
            return new ServedMethod(binding, RpcSystems.Grpc, path[1..slash], path[(slash + 1)..]);
        }, binding);

        // Where ASP.NET Core has no request activity, the W3C headers HttpClient sent are read here (ServerCall reads
        // them from ASP.NET Core's activity when there is one).
        return Activity.Current is null
            ? RpcServerTelemetry.Start(method, context.RequestHeaders.GetValue("traceparent"), context.RequestHeaders.GetValue("tracestate"))
            : RpcServerTelemetry.Start(method);
    }
}
