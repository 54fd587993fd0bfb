using System.Diagnostics;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Contracts;
using RpcCompare.Description;
using RpcCompare.Protobuf.Mapping;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>One operation a fast-uds server answers, for the connection loop that knows it only by id.</summary>
internal interface IServedOperation
{
    /// <summary>The proto service name and operation name clients bind it by.</summary>
    (string Service, string Name) Key { get; }

    /// <summary>
    /// Reads the request, calls the service and sends the reply or error for <paramref name="callId"/>:
    /// at once when the call completes synchronously, else from its continuation, so the connection
    /// reads on meanwhile and replies go out in whatever order calls finish.
    /// </summary>
    /// <param name="connection">The connection the request came on, which the reply goes back on.</param>
    /// <param name="callId">The call's id; 0 for a one-way call.</param>
    /// <param name="body">The request message (after the trace context, if any).</param>
    /// <param name="parent">The caller's span when the request carried its trace context (<see cref="TraceContext"/>); default otherwise.</param>
    void Dispatch(FastServerConnection connection, uint callId, ReadOnlySpan<byte> body, ActivityContext parent);
}

/// <summary>
/// One operation between the frame's body and the reply's, through the generated code's call of the
/// service (RpcCompare.Fast.Generator) or, for a contract without it, the compiled call every protobuf
/// binding shares (<see cref="ServerCalls{TContract, TRequest, TReply}"/>: the reflection path).
/// </summary>
internal sealed class ServedOperation<TContract, TRequest, TReply> : IServedOperation
    where TContract : class
    where TRequest : class
    where TReply : class
{
    private readonly TContract _service;
    private readonly OperationDescription _description;
    private readonly ServedMethod _telemetry;
    private readonly Func<TContract, TRequest, CancellationToken, ValueTask<TReply>> _call;
    private readonly bool _streamIn;
    private readonly bool _streamOut;
    private readonly bool _takesToken;

    /// <summary>The reflection path's operation.</summary>
    public ServedOperation(OperationMessages operation, TContract service, ServedMethod telemetry)
        : this(operation, service, telemetry, Reflected(operation))
    {
    }

    /// <summary>An operation whose service is called by <paramref name="call"/> (generated code's).</summary>
    public ServedOperation(OperationMessages operation, TContract service, ServedMethod telemetry, Func<TContract, TRequest, CancellationToken, ValueTask<TReply>> call)
    {
        _service = service;
        _description = operation.Description;
        _telemetry = telemetry;
        _call = call;
        Key = (operation.ServiceName, operation.Name);
        _streamIn = operation.Request.Shape == MessageShape.Chunks;
        _streamOut = operation.Reply.Shape == MessageShape.Chunks;
        // Only a service that can see a token gets one of its own (a source per call): the others run as before.
        _takesToken = operation.ServerForm.GetParameters().Any(static p => p.ParameterType == typeof(CancellationToken));
    }

    public (string Service, string Name) Key { get; }

    private static Func<TContract, TRequest, CancellationToken, ValueTask<TReply>> Reflected(OperationMessages operation)
    {
        var call = new ServerCalls<TContract, TRequest, TReply>(operation).Unary();
        return (service, request, token) => new ValueTask<TReply>(call(service, request, token));
    }

    public void Dispatch(FastServerConnection connection, uint callId, ReadOnlySpan<byte> body, ActivityContext parent)
    {
        var token = _takesToken && callId != 0 ? connection.Sender.TokenFor(callId) : CancellationToken.None;
        // From the request read to the reply sent; nothing unless something listens (RpcServerTelemetry).
        var telemetry = RpcServerTelemetry.Start(_telemetry, parent);
        if (_streamIn)
        {
            try
            {
                // A method of its own: the lambda's captures would otherwise be a closure allocated on every call.
                DispatchStreamed(connection, callId, telemetry, token);
            }
            catch (Exception e)
            {
                // The stream could not be opened (a call id already streaming): the connection closes, and the span ends.
                telemetry.End(e);
                throw;
            }

            telemetry.Leave();
            return;
        }

        TRequest request;
        try
        {
            request = Body.ReadMessage<TRequest>(body);
        }
        catch (Exception e)
        {
            // protobuf-net reports a bad message with several exception types; any of them is the client's mistake.
            Fail(connection, callId, new RpcServiceException(RpcErrorCode.InvalidArgument, $"The request is not a valid {Key.Name} message: {e.Message}"), telemetry);
            return;
        }

        ValueTask<TReply> task;
        try
        {
            task = _call(_service, request, token);
        }
        catch (Exception e)
        {
            Fail(connection, callId, e, telemetry);
            return;
        }

        if (task.IsCompletedSuccessfully)
        {
            Reply(connection, callId, task.Result, telemetry);
            return;
        }

        _ = CompleteAsync(task.AsTask(), connection, callId, telemetry);
        telemetry.Leave();
    }

    /// <summary>The service reads the stream while this connection's thread receives it: the call runs on the pool.</summary>
    private void DispatchStreamed(FastServerConnection connection, uint callId, ServerCall telemetry, CancellationToken token)
    {
        var inbound = connection.OpenInbound(callId);
        _ = Task.Run(async () =>
        {
            TReply reply;
            try
            {
                reply = await _call(_service, (TRequest)(object)inbound.Reader, token).ConfigureAwait(false);
            }
            catch (Exception e)
            {
                connection.CloseInbound(callId, inbound);
                Fail(connection, callId, e, telemetry);
                return;
            }

            // Before the reply: the connection's thread may be blocked writing chunks the call no longer reads.
            connection.CloseInbound(callId, inbound);
            Reply(connection, callId, reply, telemetry);
        }, CancellationToken.None); // Not the call's token: a cancelled call still answers (the service sees the token).
    }

    private void Reply(FastServerConnection connection, uint callId, TReply reply, ServerCall telemetry)
    {
        if (_streamOut)
        {
            connection.Sender.ReplyStream(callId, (Stream)(object)reply, _description);
        }
        else
        {
            connection.Sender.Reply(callId, reply);
        }

        telemetry.End();
    }

    private void Fail(FastServerConnection connection, uint callId, Exception error, ServerCall telemetry)
    {
        connection.Sender.Error(callId, error, _description);
        telemetry.End(error);
    }

    private async Task CompleteAsync(Task<TReply> task, FastServerConnection connection, uint callId, ServerCall telemetry)
    {
        TReply reply;
        try
        {
            reply = await task.ConfigureAwait(false);
        }
        catch (Exception e)
        {
            Fail(connection, callId, e, telemetry);
            return;
        }

        Reply(connection, callId, reply, telemetry);
    }
}
