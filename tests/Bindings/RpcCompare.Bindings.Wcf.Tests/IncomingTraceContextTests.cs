using CoreWCF.Channels;
using RpcCompare.Bindings.Wcf.Server;

namespace RpcCompare.Bindings.Wcf.Tests;

/// <summary>What the server takes of a request's trace context headers: a client cannot fail its call, or bloat every span, with them.</summary>
public sealed class IncomingTraceContextTests
{
    private const string TraceParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    [Fact]
    public void TheHeaders_AreReadAsTheClientSentThem()
    {
        using var request = Request(("traceparent", TraceParent), ("tracestate", "vendor=1"));

        Assert.Equal((TraceParent, "vendor=1"), IncomingTraceContext.Read(request.Headers));
    }

    [Fact]
    public void AHeaderSentTwice_IsIgnored_WithoutFailingTheCall()
    {
        using var request = Request(("traceparent", TraceParent), ("traceparent", TraceParent), ("tracestate", "vendor=1"));

        Assert.Equal((null, "vendor=1"), IncomingTraceContext.Read(request.Headers));
    }

    [Fact]
    public void HeadersPastTheirLength_AreIgnored()
    {
        using var request = Request(("traceparent", TraceParent + "-0"), ("tracestate", new string('a', 513)));

        Assert.Equal((null, null), IncomingTraceContext.Read(request.Headers));
    }

    [Fact]
    public void AHeaderOfAnotherNamespace_OrNone_IsNoContext()
    {
        using var request = Message.CreateMessage(MessageVersion.Soap12WSAddressing10, "urn:call");
        request.Headers.Add(MessageHeader.CreateHeader("traceparent", "urn:elsewhere", TraceParent));

        Assert.Equal((null, null), IncomingTraceContext.Read(request.Headers));
        Assert.Equal((null, null), IncomingTraceContext.Read(null));
    }

    private static Message Request(params (string Name, string Value)[] headers)
    {
        var request = Message.CreateMessage(MessageVersion.Soap12WSAddressing10, "urn:call");
        foreach (var (name, value) in headers)
        {
            request.Headers.Add(MessageHeader.CreateHeader(name, WcfTraceHeaders.Namespace, value));
        }

        return request;
    }
}
