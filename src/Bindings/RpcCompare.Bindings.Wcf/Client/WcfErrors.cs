using System.Globalization;
using System.ServiceModel;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>Maps what a WCF client throws back to the service's <see cref="RpcServiceException"/>.</summary>
internal static class WcfErrors
{
    /// <summary>
    /// The typed fault becomes the refusal it carries; WCF's message-size errors become
    /// QuotaExceeded, saying whose limit it was; any other failure is left as WCF raised it.
    /// </summary>
    public static Exception FromException(Exception exception, int clientLimit)
    {
        if (exception is FaultException<RpcFault> { Detail: { } fault })
        {
            return new RpcServiceException(fault.Code, fault.Message);
        }

        if (exception is QuotaExceededException && exception.Message.StartsWith(SendLimitBindingElement.RefusalPrefix, StringComparison.Ordinal))
        {
            return new RpcServiceException(RpcErrorCode.QuotaExceeded, exception.Message);
        }

        var limit = clientLimit.ToString("N0", CultureInfo.InvariantCulture);
        for (var inner = exception; inner is not null; inner = inner.InnerException)
        {
            // The client's own receive quota ("... quota for incoming messages (N) has been exceeded").
            if (inner is QuotaExceededException && !inner.Message.Contains("remote", StringComparison.OrdinalIgnoreCase))
            {
                return new RpcServiceException(RpcErrorCode.QuotaExceeded, $"The reply exceeds the client's limit of {limit} bytes (wcf: {inner.Message})");
            }
        }

        if (IsServerQuotaRefusal(exception))
        {
            return new RpcServiceException(RpcErrorCode.QuotaExceeded, $"The request exceeds the server's limit (wcf: {exception.Message})");
        }

        return exception;
    }

    private static bool IsServerQuotaRefusal(Exception exception) => exception switch
    {
        // NetTcp/UDS framing fault "MaxMessageSizeExceededFault": "... exceeded for the remote channel".
        QuotaExceededException => true,
        // BasicHttp: Kestrel or CoreWCF answered 413.
        ProtocolException protocol when protocol.Message.Contains("(413)", StringComparison.Ordinal) => true,
        _ => exception.InnerException is { } inner && IsServerQuotaRefusal(inner),
    };
}
