namespace RpcCompare.Bindings.Wcf.Http;

/// <summary>Settings of wcf-http: CoreWCF BasicHttpBinding (text SOAP 1.1) on 127.0.0.1, with WSDL.</summary>
public sealed class WcfHttpBindingOptions : WcfBindingOptions
{
    public const string SectionName = "WcfHttp";

    /// <summary>TCP port on 127.0.0.1. Defaults to 0: a free port, published in the endpoints file.</summary>
    public int Port { get; set; }
}
