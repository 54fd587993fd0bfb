using System.Globalization;
using System.Text;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Grpc;

/// <summary>
/// How a refusal crosses gRPC: the status code a gRPC client of any language understands, plus
/// the exact <see cref="RpcErrorCode"/> in a trailer so our own clients restore it.
/// </summary>
internal static class GrpcErrors
{
    /// <summary>Trailer carrying the <see cref="RpcErrorCode"/> name of a refusal.</summary>
    public const string CodeTrailer = "rpccompare-error-code";

    public static RpcException ToRpcException(RpcServiceException exception)
    {
        var trailers = new Metadata { { CodeTrailer, exception.Code.ToString() } };
        return new RpcException(new Status(ToStatusCode(exception.Code), exception.Message), trailers, exception.Message);
    }

    /// <summary>
    /// Answers a call with a refusal without reading its request: a trailers-only response (status,
    /// message and the code trailer in the headers), as a gRPC server sends an early error. The
    /// message is percent-encoded as the gRPC protocol requires of grpc-message.
    /// </summary>
    public static void WriteTrailersOnly(HttpResponse response, RpcServiceException refusal)
    {
        ArgumentNullException.ThrowIfNull(response);
        ArgumentNullException.ThrowIfNull(refusal);
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = "application/grpc";
        response.Headers["grpc-status"] = ((int)ToStatusCode(refusal.Code)).ToString(CultureInfo.InvariantCulture);
        response.Headers["grpc-message"] = PercentEncode(refusal.Message);
        response.Headers[CodeTrailer] = refusal.Code.ToString();
    }

    // gRPC's grpc-message encoding: UTF-8, with every byte outside printable ASCII, and '%', as %XX.
    private static string PercentEncode(string message)
    {
        var encoded = new StringBuilder(message.Length);
        foreach (var b in Encoding.UTF8.GetBytes(message))
        {
            if (b is >= 0x20 and <= 0x7E and not (byte)'%')
            {
                encoded.Append((char)b);
            }
            else
            {
                encoded.Append(CultureInfo.InvariantCulture, $"%{b:X2}");
            }
        }

        return encoded.ToString();
    }

    public static StatusCode ToStatusCode(RpcErrorCode code) => code switch
    {
        RpcErrorCode.InvalidArgument => StatusCode.InvalidArgument,
        RpcErrorCode.PathRefused => StatusCode.PermissionDenied,
        RpcErrorCode.NotFound => StatusCode.NotFound,
        RpcErrorCode.QuotaExceeded => StatusCode.ResourceExhausted,
        RpcErrorCode.PermissionDenied => StatusCode.PermissionDenied,
        _ => StatusCode.Internal,
    };

    /// <summary>
    /// Restores the service's refusal from its trailer; maps gRPC's own message-size errors to
    /// QuotaExceeded, saying whose limit it was; leaves every other failure (unavailable server,
    /// deadline, cancellation) as the RpcException gRPC raised.
    /// </summary>
    public static Exception FromRpcException(RpcException exception, int clientLimit)
    {
        if (exception.Trailers.GetValue(CodeTrailer) is { } name && Enum.TryParse<RpcErrorCode>(name, out var code))
        {
            return new RpcServiceException(code, exception.Status.Detail);
        }

        if (exception.StatusCode == StatusCode.ResourceExhausted)
        {
            // grpc-dotnet's wording: "Sending message exceeds the maximum configured message size."
            // is raised by this client before anything is sent; "Received message exceeds ..." comes
            // either from the server (it refused the request) or from this client (the reply was too
            // big). Only the server's refusal arrives as a response, with its headers as trailers
            // (trailers-only); the client's own has none.
            var detail = exception.Status.Detail;
            var limit = clientLimit.ToString("N0", CultureInfo.InvariantCulture);
            if (detail.StartsWith("Sending message exceeds", StringComparison.Ordinal))
            {
                return new RpcServiceException(RpcErrorCode.QuotaExceeded, $"The request exceeds the client's limit of {limit} bytes (grpc: {detail}).");
            }

            if (detail.StartsWith("Received message exceeds", StringComparison.Ordinal))
            {
                return exception.Trailers.Count > 0
                    ? new RpcServiceException(RpcErrorCode.QuotaExceeded, $"The request exceeds the server's limit (grpc: {detail}).")
                    : new RpcServiceException(RpcErrorCode.QuotaExceeded, $"The reply exceeds the client's limit of {limit} bytes (grpc: {detail}).");
            }
        }

        return exception;
    }
}
