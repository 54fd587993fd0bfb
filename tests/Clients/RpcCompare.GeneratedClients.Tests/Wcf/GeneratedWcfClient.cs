using System.ServiceModel;
using System.IdentityModel.Selectors;
using System.IdentityModel.Tokens;
using System.Security.Cryptography.X509Certificates;
using System.ServiceModel.Channels;
using System.ServiceModel.Security;
using Files = RpcCompare.Generated.Wcf.FileService;
using Payloads = RpcCompare.Generated.Wcf.PayloadService;

namespace RpcCompare.GeneratedClients.Tests.Wcf;

/// <summary>
/// The dotnet-svcutil client generated from clients/wsdl, used as a WCF team would: over the
/// BasicHttpBinding endpoint the WSDL describes, or over NetTcp by passing another binding to
/// the generated client's (Binding, EndpointAddress) constructor.
/// </summary>
public sealed class GeneratedWcfClient : IParityClient, IAsyncDisposable
{
    private readonly Files.rpccomparev1FileServiceClient _files;
    private readonly Payloads.rpccomparev1PayloadServiceClient _payloads;

    private GeneratedWcfClient(Files.rpccomparev1FileServiceClient files, Payloads.rpccomparev1PayloadServiceClient payloads)
    {
        _files = files;
        _payloads = payloads;
    }

    /// <summary>wcf-http, with the binding svcutil generated from the WSDL; only the address changes.</summary>
    public static GeneratedWcfClient OverHttp(string baseAddress) => new(
        new(Files.rpccomparev1FileServiceClient.EndpointConfiguration.BasicHttpBinding_rpccompare_v1_FileService, $"{baseAddress}/rpccompare.v1.FileService"),
        new(Payloads.rpccomparev1PayloadServiceClient.EndpointConfiguration.BasicHttpBinding_rpccompare_v1_PayloadService, $"{baseAddress}/rpccompare.v1.PayloadService"));

    /// <summary>wcf-nettcp: the same generated client with the binding swapped (binary encoding, no security, as the server).</summary>
    public static GeneratedWcfClient OverNetTcp(string baseAddress)
    {
        Binding Binding() => new NetTcpBinding(SecurityMode.None) { MaxReceivedMessageSize = 16 * 1024 * 1024 };
        return new(
            new(Binding(), new EndpointAddress($"{baseAddress.TrimEnd('/')}/rpccompare.v1.FileService")),
            new(Binding(), new EndpointAddress($"{baseAddress.TrimEnd('/')}/rpccompare.v1.PayloadService")));
    }

    /// <summary>
    /// wcf-http over HTTPS, as a WCF team trusting the host's self-signed certificate would connect:
    /// BasicHttpBinding with transport security, and a validator that accepts that one certificate.
    /// </summary>
    public static GeneratedWcfClient OverHttps(string baseAddress, X509Certificate2 trusted)
    {
        Binding Binding() => new BasicHttpBinding(BasicHttpSecurityMode.Transport) { MaxReceivedMessageSize = 16 * 1024 * 1024 };
        return Trusting(trusted,
            new(Binding(), new EndpointAddress($"{baseAddress.TrimEnd('/')}/rpccompare.v1.FileService")),
            new(Binding(), new EndpointAddress($"{baseAddress.TrimEnd('/')}/rpccompare.v1.PayloadService")));
    }

    /// <summary>
    /// wcf-nettcp with transport security (TLS inside WCF's framing), trusting the host's certificate;
    /// the endpoint's identity is the certificate's DNS name, since WCF checks DNS names only, not
    /// the IP address the client dialled.
    /// </summary>
    public static GeneratedWcfClient OverNetTcpTls(string baseAddress, X509Certificate2 trusted)
    {
        Binding Binding() => new NetTcpBinding(SecurityMode.Transport) { MaxReceivedMessageSize = 16 * 1024 * 1024, Security = { Transport = { ClientCredentialType = TcpClientCredentialType.None } } };
        EndpointAddress Address(string service) => new(new Uri($"{baseAddress.TrimEnd('/')}/{service}"), new DnsEndpointIdentity("localhost"));
        return Trusting(trusted, new(Binding(), Address("rpccompare.v1.FileService")), new(Binding(), Address("rpccompare.v1.PayloadService")));
    }

    private static GeneratedWcfClient Trusting(X509Certificate2 trusted, Files.rpccomparev1FileServiceClient files, Payloads.rpccomparev1PayloadServiceClient payloads)
    {
        foreach (var credentials in new[] { files.ClientCredentials, payloads.ClientCredentials })
        {
            credentials.ServiceCertificate.SslCertificateAuthentication = new X509ServiceCertificateAuthentication
            {
                CertificateValidationMode = X509CertificateValidationMode.Custom,
                CustomCertificateValidator = new OneCertificate(trusted),
                RevocationMode = X509RevocationMode.NoCheck,
            };
        }

        return new(files, payloads);
    }

    public async Task PingAsync() => await _files.PingAsync(new Files.PingRequest());

    public async Task<IReadOnlyList<ParityEntry>> ReadDirectoryAsync(string path) =>
        [.. (await _files.ReadDirectoryAsync(new Files.ReadDirectoryRequest { Path = path })).Entries.Select(e => new ParityEntry(e.Name, e.Size, e.IsDirectory))];

    public async Task<ParityWrite> WriteAtAsync(string? path, long? offset, int repeat)
    {
        // The WSDL cannot say that Offset defaults to -1 (the middle), and svcutil's data contract
        // always writes the member: a WSDL client leaving it out sends 0, the start of the file.
        // It states the documented default instead.
        var reply = await _files.WriteAtAsync(new Files.WriteAtRequest { Path = path, Offset = offset ?? -1, Repeat = repeat });
        return new(reply.BytesWritten, reply.Offset, reply.FileLength);
    }

    public async Task<byte[]> EchoBytesAsync(byte[] data) => (await _payloads.EchoBytesAsync(new Payloads.BytesMessage { Data = data })).Data;

    /// <summary>A refusal is a typed SOAP fault whose detail is the WSDL's RpcFault.</summary>
    public string? ErrorCodeOf(Exception exception) => exception switch
    {
        FaultException<Files.RpcFault> fault => fault.Detail.Code.ToString(),
        FaultException<Payloads.RpcFault> fault => fault.Detail.Code.ToString(),
        _ => null,
    };

    public async ValueTask DisposeAsync()
    {
        await CloseAsync(_files);
        await CloseAsync(_payloads);
    }

    /// <summary>Accepts the one certificate the host wrote beside its endpoints file, and no other.</summary>
    private sealed class OneCertificate(X509Certificate2 trusted) : X509CertificateValidator
    {
        public override void Validate(X509Certificate2 certificate)
        {
            if (!certificate.RawDataMemory.Span.SequenceEqual(trusted.RawDataMemory.Span))
            {
                throw new SecurityTokenValidationException($"The server presented {certificate.Subject}, not the host's certificate.");
            }
        }
    }

    private static async Task CloseAsync(ICommunicationObject client)
    {
        try
        {
            await Task.Factory.FromAsync(client.BeginClose, client.EndClose, null);
        }
        catch (CommunicationException)
        {
            client.Abort();
        }
    }
}
