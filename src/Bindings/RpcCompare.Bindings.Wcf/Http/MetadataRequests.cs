using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace RpcCompare.Bindings.Wcf.Http;

/// <summary>
/// wcf-http's metadata GETs (?wsdl, ?singleWsdl, ?wsdl=wsdl0, ?xsd=xsd0): ?wsdl answered with the one
/// self-contained document, and every metadata request in the process answered one at a time.
/// </summary>
/// <remarks>
/// One at a time because CoreWCF (1.9.1) cannot export two services' WSDL at once: its SoapHelper
/// keeps one static XmlDocument, created lazily without a lock, for the attributes of every fault
/// binding it writes. Two first ?wsdl requests for two services racing there made one of them (or
/// both) a 500: "An exception was thrown in a call to a WSDL export extension ... The named node is
/// from a different document context" (seen in CI, two generated-client tests fetching their WSDL
/// from one host together; CoreWCF/CoreWCF#1036). The static is shared by every host in the process, so
/// the queue is too: a queue per host still failed when a test process ran several hosts whose first
/// ?wsdl requests met (three CI-sized runs on 2026-11-28 and 29, NodeTlsClientTests and the Node SOAP
/// tests). CoreWCF generates a service's metadata once and keeps it, so the queue
/// costs only the first request per service anything; metadata requests are rare, and small
/// enough that the socket's buffer takes the whole answer, so a slow reader does not hold the queue.
/// </remarks>
internal sealed class MetadataRequests
{
    private static readonly string[] s_metadataKeys = ["wsdl", "singleWsdl", "xsd"];

    /// <summary>The one queue of the process: CoreWCF's shared state is static (see the remarks).</summary>
    private static readonly SemaphoreSlim s_processWide = new(1, 1);

    private readonly SemaphoreSlim _oneAtATime;

    /// <summary>Answers metadata requests one at a time with every other host in the process.</summary>
    public MetadataRequests()
        : this(s_processWide)
    {
    }

    /// <summary>Answers metadata requests one at a time through <paramref name="queue"/> (tests use their own).</summary>
    internal MetadataRequests(SemaphoreSlim queue) => _oneAtATime = queue;

    /// <summary>Registers the middleware for the binding's server.</summary>
    public static void AddServices(IServiceCollection services) => services.AddSingleton(_ => new MetadataRequests());

    /// <summary>Adds the rewrite and the queue to <paramref name="application"/>'s pipeline.</summary>
    public static void AddTo(IApplicationBuilder application) =>
        application.Use(application.ApplicationServices.GetRequiredService<MetadataRequests>().InvokeAsync);

    /// <summary>Whether <paramref name="request"/> asks for metadata rather than calling an operation.</summary>
    public static bool IsMetadataRequest(HttpRequest request) =>
        HttpMethods.IsGet(request.Method) && Array.Exists(s_metadataKeys, key => request.Query.ContainsKey(key));

    public async Task InvokeAsync(HttpContext context, RequestDelegate next)
    {
        if (!IsMetadataRequest(context.Request))
        {
            await next(context);
            return;
        }

        // CoreWCF's multi-document form imports the binding from another namespace, and a Node.js
        // soap client built from it sent every call with the wrong body element.
        if (string.Equals(context.Request.QueryString.Value, "?wsdl", StringComparison.OrdinalIgnoreCase))
        {
            context.Request.QueryString = new QueryString("?singleWsdl");
        }

        await _oneAtATime.WaitAsync(context.RequestAborted);
        try
        {
            await next(context);
        }
        finally
        {
            _oneAtATime.Release();
        }
    }
}
