using CoreWCF;
using CoreWCF.Channels;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>The caller's trace context as a request carried it (<see cref="WcfTraceHeaders"/>), for the call's server span.</summary>
internal static class IncomingTraceContext
{
    /// <summary>
    /// The traceparent and tracestate headers, each when present once as a string within its length limit; anything
    /// else (repeated, not a string, too long) is null, and the call is served in a trace of its own.
    /// </summary>
    public static (string? TraceParent, string? TraceState) Read(MessageHeaders? headers) => headers is null
        ? (null, null)
        : (Header(headers, WcfTraceHeaders.TraceParent, WcfTraceHeaders.MaxTraceParentLength), Header(headers, WcfTraceHeaders.TraceState, WcfTraceHeaders.MaxTraceStateLength));

    private static string? Header(MessageHeaders headers, string name, int maxLength)
    {
        try
        {
            var index = headers.FindHeader(name, WcfTraceHeaders.Namespace);
            return index >= 0 && headers.GetHeader<string>(index) is { } value && value.Length <= maxLength ? value : null;
        }
        catch (Exception e) when (e is System.Runtime.Serialization.SerializationException or System.Xml.XmlException or CommunicationException)
        {
            // CommunicationException: MessageHeaderException, when the header is there more than once.
            return null;
        }
    }
}
