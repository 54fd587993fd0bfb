using System.Xml.Linq;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Wcf;
using RpcCompare.Contracts;

namespace RpcCompare.SchemaExport;

/// <summary>
/// The WSDL of every RpcCompare contract as the wcf-http binding serves it: one self-contained
/// document per service (CoreWCF's ?singleWsdl), so a client generator needs no further downloads.
/// </summary>
public static class WsdlDocuments
{
    /// <summary>
    /// The address in every checked-in document: wcf-http as docker/compose.yaml publishes it. The
    /// documents are fetched with this Host header and the service writes its addresses from it
    /// (the live port is random, which would make every export differ).
    /// </summary>
    public const string PublishedAddress = "http://localhost:8080";

    /// <summary>
    /// The services with a WSDL: the request-reply contracts. The push contracts have none:
    /// IPushService streams (gRPC only) and IPushDuplexService calls back, which BasicHttp cannot;
    /// HTTP subscribers long-poll instead.
    /// </summary>
    public static IReadOnlyList<Type> Services { get; } = [typeof(IFileService), typeof(ICallShapeService), typeof(IPayloadService)];

    /// <summary>Starts wcf-http on a free loopback port, fetches every document and stops it again.</summary>
    public static async Task<IReadOnlyDictionary<string, string>> GenerateAsync(CancellationToken cancellationToken = default)
    {
        var dataRoot = Directory.CreateTempSubdirectory("rpccompare-wsdl-");
        try
        {
            var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
            builder.Logging.SetMinimumLevel(LogLevel.Warning);
            builder.Services.AddRpcCompareServices(configure: o => o.Path = dataRoot.FullName);
            builder.Services.AddWcfHttpBinding();
            using var host = builder.Build();
            await host.StartAsync(cancellationToken);
            try
            {
                var address = host.Services.GetServices<IBindingServer>().Single(s => s.Name == BindingNames.WcfHttp).Address!;
                return await FetchAsync(new Uri(address), cancellationToken);
            }
            finally
            {
                await host.StopAsync(CancellationToken.None);
            }
        }
        finally
        {
            dataRoot.Delete(recursive: true);
        }
    }

    /// <summary>File name (relative to clients/wsdl) to content, fetched from a running wcf-http binding.</summary>
    public static async Task<IReadOnlyDictionary<string, string>> FetchAsync(Uri baseAddress, CancellationToken cancellationToken = default)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        var live = baseAddress.GetLeftPart(UriPartial.Authority);
        var documents = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var contract in Services)
        {
            var service = WcfEndpoints.NameOf(contract);
            using var request = new HttpRequestMessage(HttpMethod.Get, new Uri($"{live}/{service}?singleWsdl"));
            request.Headers.Host = new Uri(PublishedAddress).Authority;
            using var response = await http.SendAsync(request, cancellationToken);
            response.EnsureSuccessStatusCode();
            documents[$"{service}.wsdl"] = Normalize(await response.Content.ReadAsStringAsync(cancellationToken));
        }

        return documents;
    }

    // Indented with one line ending, so a change to a contract reads as a small diff.
    private static string Normalize(string wsdl)
    {
        var document = XDocument.Parse(wsdl);
        return $"{document.Declaration}\n{document}\n".ReplaceLineEndings("\n");
    }
}
