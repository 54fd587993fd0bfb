using System.ServiceModel;
using System.ServiceModel.Channels;
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
