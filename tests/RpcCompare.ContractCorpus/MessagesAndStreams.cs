using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>Typed messages: a header and ordered body members instead of parameters.</summary>
[ServiceContract(Namespace = "urn:corpus:messages")]
public interface ITypedMessages
{
    [OperationContract]
    PlaceResponse Place(PlaceRequest request);
}

[MessageContract]
public class PlaceRequest
{
    [MessageHeader]
    public string Tenant { get; set; } = "";

    [MessageBodyMember(Order = 1)]
    public string Sku { get; set; } = "";

    [MessageBodyMember(Order = 2)]
    public int Quantity { get; set; }
}

[MessageContract]
public class PlaceResponse
{
    [MessageBodyMember]
    public int OrderId { get; set; }
}

/// <summary>WCF's streamed transfer: a file out as the return value, a file in as the only parameter.</summary>
[ServiceContract(Namespace = "urn:corpus:files")]
public interface IStreamedFiles
{
    [OperationContract]
    Stream Download(string path);

    [OperationContract]
    void Upload(Stream data);

    [OperationContract]
    Task<Stream> DownloadLatestAsync();
}

/// <summary>A stream beside another parameter: WCF loads it (CoreWCF refuses it when the endpoint starts).</summary>
[ServiceContract(Namespace = "urn:corpus:files")]
public interface IStreamBesideAParameter
{
    [OperationContract]
    void Store(string name, Stream data);
}
