using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// The errors' side of the sender: a call's error (logged unless it is a refusal or a fault the
/// service meant), the connection's own refusal, and an error body that always serializes.
/// </summary>
internal sealed partial class ConnectionSender
{
    /// <summary>The error a call ended with; a one-way call's (call id 0) is only logged, as WCF does.</summary>
    public void Error(uint callId, Exception exception, OperationDescription? operation)
    {
        try
        {
            LogUnexpected(exception, operation);
            lock (_lock)
            {
                if (Finish(callId) && !_closed)
                {
                    WriteError(callId, SafeBody(exception, operation));
                }
            }
        }
        finally
        {
            Ended();
        }
    }

    /// <summary>An error for the connection itself (call id 0): the client fails its call with it and drops the connection.</summary>
    public void ConnectionError(RpcServiceException error) => SendErrorFrame(0, error, null);

    private void SendErrorFrame(uint callId, Exception exception, OperationDescription? operation)
    {
        lock (_lock)
        {
            if (!_closed)
            {
                WriteError(callId, SafeBody(exception, operation));
            }
        }
    }

    private void LogUnexpected(Exception exception, OperationDescription? operation)
    {
        if (exception is not RpcServiceException and not System.ServiceModel.FaultException)
        {
            FastServerLog.OperationFailed(_logger, exception, operation?.Name ?? "?", _connectionId);
        }
    }

    // A fault whose detail does not serialize must still end the call, as Internal.
    private ErrorBody SafeBody(Exception exception, OperationDescription? operation)
    {
        try
        {
            return FastErrors.ToBody(exception, operation);
        }
        catch (Exception e)
        {
            FastServerLog.OperationFailed(_logger, e, "error serialization", _connectionId);
            return FastErrors.ToBody(new InvalidOperationException(), null);
        }
    }

    // Under _lock.
    private void WriteError(uint callId, ErrorBody error)
    {
        _writer.Reset();
        Body.WriteProtocol(_writer, error);
        Send(_writer.Complete(FrameKind.Error, 0, callId));
    }
}
