using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>
/// The WCF HTTP client's hook into the HttpClientHandler it builds (a Func of the handler in the
/// binding parameters): the server certificate is checked by <see cref="ClientTlsOptions.ValidationCallback"/>,
/// as on gRPC, so a refusal says which thumbprint the server had instead of WCF's "rejected by the provided callback".
/// </summary>
internal sealed class HttpsTrustBehavior : IEndpointBehavior
{
    private readonly ClientTlsOptions _tls;

    public HttpsTrustBehavior(ClientTlsOptions tls)
    {
        _tls = tls;
    }

    public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters)
    {
        ArgumentNullException.ThrowIfNull(bindingParameters);
        var callback = _tls.ValidationCallback;
        bindingParameters.Add(new Func<HttpClientHandler, HttpMessageHandler>(handler =>
        {
            handler.ServerCertificateCustomValidationCallback = (message, certificate, chain, errors) => callback(message, certificate, chain, errors);
            if (_tls.ClientCertificate is { } client)
            {
                handler.ClientCertificateOptions = ClientCertificateOption.Manual;
                handler.ClientCertificates.Add(client);
            }

            return handler;
        }));
    }

    public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime)
    {
    }

    public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
    {
    }

    public void Validate(ServiceEndpoint endpoint)
    {
    }
}
