using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>What a fast-uds client tells its caller, the same way from every connection it uses.</summary>
internal static class FastClientErrors
{
    public static TimeoutException CallTimedOut(string? operation, TimeSpan timeout) =>
        new($"{operation} did not complete within {timeout.TotalMilliseconds:#,0.###} ms " +
            $"({nameof(FastClientOptions)}.{nameof(FastClientOptions.CallTimeout)}); the server was told to cancel it.");

    /// <summary>A streamed call past its timeout: its connection was closed instead of a Cancel sent (<see cref="StreamedWait"/>).</summary>
    public static string StreamedCallTimedOut(string? operation, TimeSpan timeout) =>
        $"{operation} did not complete within {timeout.TotalMilliseconds:#,0.###} ms ({nameof(FastClientOptions)}.{nameof(FastClientOptions.CallTimeout)}); " +
        "its connection was closed, which cancels it on the server.";

    /// <summary>A reply stream that sent no chunk for the call timeout.</summary>
    public static string ReplyStreamStalled(string? operation, TimeSpan timeout) =>
        $"The reply stream of {operation} sent nothing for {timeout.TotalMilliseconds:#,0.###} ms " +
        $"({nameof(FastClientOptions)}.{nameof(FastClientOptions.CallTimeout)}); its connection was closed.";

    /// <summary>A request refused before any of it was written: the connection is untouched.</summary>
    public static RpcServiceException RequestTooLarge(int bodyLength, int limit) =>
        new(RpcErrorCode.QuotaExceeded,
            $"The request is {bodyLength:#,0} bytes, over the client's limit of {limit:#,0} bytes ({nameof(FastClientOptions)}.{nameof(FastClientOptions.MaxMessageSize)}); nothing was sent.");

    public static RpcServiceException ReplyTooLarge(long bodyLength, int limit) =>
        new(RpcErrorCode.QuotaExceeded,
            $"The reply is {bodyLength:#,0} bytes, over the client's limit of {limit:#,0} bytes ({nameof(FastClientOptions)}.{nameof(FastClientOptions.MaxMessageSize)}).");
}
